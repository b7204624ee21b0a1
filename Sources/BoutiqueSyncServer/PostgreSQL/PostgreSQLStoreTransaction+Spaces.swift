import Foundation

/// Spaces in the PostgreSQL store, as in the SQLite store: `space`, `parent_tbl` and `parent_key`
/// columns on the rows, `space` and `moved_from` on the log, the members' history, and the tables'
/// shapes (``PostgreSQLStoreSchema``'s second migration).
///
/// Spaces and users are the `bytea` of their UTF-8 and keys are ``PostgreSQLKey``'s, like every name a
/// device sends. A list of spaces is bound as one `bytea[]` and matched with `= ANY($n)`: a user in any
/// number of spaces is one parameter, and the statement's text never changes with the list.
extension PostgreSQLStoreTransaction {
    func placement(table: String, key: DatabaseValue) throws -> RowPlacement? {
        let found = try run(
            "SELECT space, parent_tbl, parent_key FROM boutique_sync_server_row WHERE tenant = $1 AND tbl = $2 AND key = $3",
            [Self.name(table), .bytea(PostgreSQLKey.encode(key))])
        guard found.rowCount > 0 else { return nil }
        return RowPlacement(space: try Self.space(found, 0, 0), parent: try Self.parent(found, 0, 1))
    }

    func setRowState(_ state: RowRegister, table: String, key: DatabaseValue, sequence: Int64, placement: RowPlacement) throws {
        try batchRowState(state, name: RowName(table: Array(table.utf8), key: PostgreSQLKey.encode(key)), sequence: sequence, placement: placement)
    }

    func setPlacement(_ placement: RowPlacement, table: String, key: DatabaseValue) throws {
        try write(
            """
            UPDATE boutique_sync_server_row SET space = $4, parent_tbl = $5, parent_key = $6
            WHERE tenant = $1 AND tbl = $2 AND key = $3
            """,
            [Self.name(table), .bytea(PostgreSQLKey.encode(key))] + Self.values(placement))
    }

    func children(of parent: SnapshotPosition) throws -> [SnapshotPosition] {
        let found = try run(
            """
            SELECT tbl, key FROM boutique_sync_server_row WHERE tenant = $1 AND parent_tbl = $2 AND parent_key = $3
            ORDER BY tbl, key
            """,
            [Self.name(parent.table), .bytea(PostgreSQLKey.encode(parent.key))])
        var children: [SnapshotPosition] = []
        for row in 0..<found.rowCount {
            children.append(SnapshotPosition(table: try found.string(row, 0), key: try PostgreSQLKey.decode(try found.bytes(row, 1))))
        }
        return children
    }

    func rows(in space: SyncSpace, after position: SnapshotPosition?, limit: Int) throws -> [SnapshotRow] {
        // As `rows(after:limit:)`: a negative limit is no limit, and nothing of a table follows a
        // position whose key is NULL.
        let count = PostgreSQLValue.optionalInt8(limit < 0 ? nil : Int64(limit))
        let found: PostgreSQLResult
        switch position {
        case nil:
            found = try run(
                "SELECT tbl, key, state FROM boutique_sync_server_row WHERE tenant = $1 AND space = $2 ORDER BY tbl, key LIMIT $3",
                [Self.value(space), count])
        case let position? where position.key.isNull:
            found = try run(
                """
                SELECT tbl, key, state FROM boutique_sync_server_row WHERE tenant = $1 AND space = $2 AND tbl > $3
                ORDER BY tbl, key LIMIT $4
                """,
                [Self.value(space), Self.name(position.table), count])
        case let position?:
            found = try run(
                """
                SELECT tbl, key, state FROM boutique_sync_server_row WHERE tenant = $1 AND space = $2 AND (tbl, key) > ($3, $4)
                ORDER BY tbl, key LIMIT $5
                """,
                [Self.value(space), Self.name(position.table), .bytea(PostgreSQLKey.encode(position.key)), count])
        }
        var rows: [SnapshotRow] = []
        for row in 0..<found.rowCount {
            rows.append(SnapshotRow(
                table: try found.string(row, 0), key: try PostgreSQLKey.decode(try found.bytes(row, 1)),
                state: try Self.rowRegister(try found.bytes(row, 2)), space: space))
        }
        return rows
    }

    func rows(in space: SyncSpace, table: String, after key: DatabaseValue?, limit: Int) throws -> [SnapshotRow] {
        let count = PostgreSQLValue.optionalInt8(limit < 0 ? nil : Int64(limit))
        let found: PostgreSQLResult
        if let key {
            found = try run(
                """
                SELECT key, state FROM boutique_sync_server_row WHERE tenant = $1 AND space = $2 AND tbl = $3 AND key > $4
                ORDER BY key LIMIT $5
                """,
                [Self.value(space), Self.name(table), .bytea(PostgreSQLKey.encode(key)), count])
        } else {
            found = try run(
                "SELECT key, state FROM boutique_sync_server_row WHERE tenant = $1 AND space = $2 AND tbl = $3 ORDER BY key LIMIT $4",
                [Self.value(space), Self.name(table), count])
        }
        var rows: [SnapshotRow] = []
        for row in 0..<found.rowCount {
            rows.append(SnapshotRow(
                table: table, key: try PostgreSQLKey.decode(try found.bytes(row, 0)),
                state: try Self.rowRegister(try found.bytes(row, 1)), space: space))
        }
        return rows
    }

    func rowSizes(in space: SyncSpace, after position: SnapshotPosition?, limit: Int) throws -> [Int] {
        let count = PostgreSQLValue.optionalInt8(limit < 0 ? nil : Int64(limit))
        let found: PostgreSQLResult
        switch position {
        case nil:
            found = try run(
                """
                SELECT octet_length(state)::int8 FROM boutique_sync_server_row WHERE tenant = $1 AND space = $2
                ORDER BY tbl, key LIMIT $3
                """,
                [Self.value(space), count])
        case let position? where position.key.isNull:
            found = try run(
                """
                SELECT octet_length(state)::int8 FROM boutique_sync_server_row WHERE tenant = $1 AND space = $2 AND tbl > $3
                ORDER BY tbl, key LIMIT $4
                """,
                [Self.value(space), Self.name(position.table), count])
        case let position?:
            found = try run(
                """
                SELECT octet_length(state)::int8 FROM boutique_sync_server_row
                WHERE tenant = $1 AND space = $2 AND (tbl, key) > ($3, $4) ORDER BY tbl, key LIMIT $5
                """,
                [Self.value(space), Self.name(position.table), .bytea(PostgreSQLKey.encode(position.key)), count])
        }
        return try Self.sizes(found)
    }

    func rowSizes(in space: SyncSpace, table: String, after key: DatabaseValue?, limit: Int) throws -> [Int] {
        let count = PostgreSQLValue.optionalInt8(limit < 0 ? nil : Int64(limit))
        if let key {
            return try Self.sizes(try run(
                """
                SELECT octet_length(state)::int8 FROM boutique_sync_server_row
                WHERE tenant = $1 AND space = $2 AND tbl = $3 AND key > $4 ORDER BY key LIMIT $5
                """,
                [Self.value(space), Self.name(table), .bytea(PostgreSQLKey.encode(key)), count]))
        }
        return try Self.sizes(try run(
            """
            SELECT octet_length(state)::int8 FROM boutique_sync_server_row WHERE tenant = $1 AND space = $2 AND tbl = $3
            ORDER BY key LIMIT $4
            """,
            [Self.value(space), Self.name(table), count]))
    }

    func rowCount(in spaces: [SyncSpace]) throws -> Int {
        let found = try run(
            "SELECT count(*) FROM boutique_sync_server_row WHERE tenant = $1 AND space = ANY($2)", [Self.value(spaces)])
        return found.rowCount > 0 ? Int(try found.int64(0, 0)) : 0
    }

    // MARK: Log

    func appendChange(
        _ change: SyncChange, origin: String, batch: Int64?, space: SyncSpace, movedFrom: SyncSpace?
    ) throws -> (sequence: Int64, batch: Int64) {
        let sequence = try takeSequence()
        let batch = batch ?? sequence
        guard movedFrom != nil else {
            try batchLogEntry(sequence: sequence, batch: batch, change: change, origin: origin, space: space)
            return (sequence, batch)
        }
        try write(
            """
            INSERT INTO boutique_sync_server_log(tenant, sequence, batch, tbl, key, change, origin, space, moved_from)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
            """,
            [.int8(sequence), .int8(batch), Self.name(change.table), .bytea(PostgreSQLKey.encode(change.key)),
             .bytea(ChangeRecord.encode(change)), Self.name(origin), Self.value(space), movedFrom.map(Self.value) ?? .null(.bytea)])
        return (sequence, batch)
    }

    func changes(after: Int64, through: Int64, visibleIn spaces: [SyncSpace], batch: Int64?) throws -> [LoggedChange] {
        // The range of sequence numbers is the primary key's; the spaces only filter what it holds.
        var sql = """
            SELECT sequence, batch, tbl, key, change, origin, space, moved_from FROM boutique_sync_server_log
            WHERE tenant = $1 AND sequence > $2 AND sequence <= $3 AND (space = ANY($4) OR moved_from = ANY($4))
            """
        var parameters: [PostgreSQLValue] = [.int8(after), .int8(through), Self.value(spaces)]
        if let batch {
            sql += " AND batch = $5"
            parameters.append(.int8(batch))
        }
        let found = try run(sql + " ORDER BY sequence", parameters)
        var logged: [LoggedChange] = []
        for row in 0..<found.rowCount {
            let change = try ChangeRecord.decode(
                try found.bytes(row, 4), table: try found.string(row, 2), key: try PostgreSQLKey.decode(try found.bytes(row, 3)))
            let movedFrom = try found.isNull(row, 7) ? nil : try Self.space(found, row, 7)
            logged.append(LoggedChange(
                entry: ServerChange(sequence: try found.int64(row, 0), change: change, space: try Self.space(found, row, 6)),
                batch: try found.int64(row, 1), origin: try found.string(row, 5), movedFrom: movedFrom))
        }
        return logged
    }

    /// Every entry of the range's batches is counted (the last batch through at most
    /// ``LogBatchSize/countedChanges(limit:)`` sequence numbers), its size only when
    /// ``changes(after:through:visibleIn:batch:)`` would return it; `octet_length` reads no change.
    func batchSizes(after: Int64, through: Int64, visibleIn spaces: [SyncSpace]) throws -> [LogBatchSize] {
        let found = try run(
            """
            SELECT batch, max(sequence), count(*)::int8,
                coalesce(sum(CASE WHEN space = ANY($4) OR moved_from = ANY($4) THEN octet_length(change) ELSE 0 END), 0)::int8
            FROM boutique_sync_server_log
            WHERE tenant = $1 AND sequence > $2 AND sequence <= $5 AND batch <= coalesce((
                SELECT max(batch) FROM boutique_sync_server_log WHERE tenant = $1 AND sequence > $2 AND sequence <= $3), -1)
            GROUP BY batch ORDER BY batch
            """,
            [.int8(after), .int8(through), Self.value(spaces), .int8(LogBatchSize.countedThrough(after: after, through: through))])
        return try Self.batchSizes(found)
    }

    func reserveSequence() throws -> Int64 { try takeSequence() }

    // MARK: Members

    func members(of space: SyncSpace) throws -> [SyncMember] {
        let found = try run(
            "SELECT usr, role FROM boutique_sync_server_member WHERE tenant = $1 AND space = $2 AND until IS NULL ORDER BY usr",
            [Self.value(space)])
        var members: [SyncMember] = []
        for row in 0..<found.rowCount {
            // A role this code does not know (written by a newer server) grants nothing here.
            guard let role = SyncRole(rawValue: try found.string(row, 1)) else { continue }
            members.append(SyncMember(user: try found.string(row, 0), role: role))
        }
        return members
    }

    func noteConnected(_ user: String) throws {
        try write("INSERT INTO boutique_sync_server_user(tenant, usr) VALUES ($1, $2) ON CONFLICT DO NOTHING", [Self.name(user)])
    }

    func hasConnected(_ user: String) throws -> Bool {
        try run("SELECT 1 FROM boutique_sync_server_user WHERE tenant = $1 AND usr = $2", [Self.name(user)]).rowCount > 0
    }

    func setMember(_ user: String, role: SyncRole?, in space: SyncSpace, sequence: Int64) throws {
        let current = try run(
            "SELECT since FROM boutique_sync_server_member WHERE tenant = $1 AND space = $2 AND usr = $3 AND until IS NULL",
            [Self.value(space), Self.name(user)])
        let since = current.rowCount > 0 ? try current.int64(0, 0) : nil
        switch (role, since) {
        case (let role?, let since?):
            _ = try run(
                "UPDATE boutique_sync_server_member SET role = $5 WHERE tenant = $1 AND space = $2 AND usr = $3 AND since = $4",
                [Self.value(space), Self.name(user), .int8(since), .text(role.rawValue)])
        case (let role?, nil):
            _ = try run(
                "INSERT INTO boutique_sync_server_member(tenant, space, usr, role, since, until) VALUES ($1, $2, $3, $4, $5, NULL)",
                [Self.value(space), Self.name(user), .text(role.rawValue), .int8(sequence)])
        case (nil, let since?):
            _ = try run(
                "UPDATE boutique_sync_server_member SET until = $5 WHERE tenant = $1 AND space = $2 AND usr = $3 AND since = $4",
                [Self.value(space), Self.name(user), .int8(since), .int8(sequence)])
        case (nil, nil):
            break
        }
    }

    func memberships(of user: String, at sequence: Int64?) throws -> [SyncSpace: SyncRole] {
        let found: PostgreSQLResult
        if let sequence {
            found = try run(
                """
                SELECT space, role FROM boutique_sync_server_member
                WHERE tenant = $1 AND usr = $2 AND since <= $3 AND (until IS NULL OR until > $3)
                """,
                [Self.name(user), .int8(sequence)])
        } else {
            found = try run(
                "SELECT space, role FROM boutique_sync_server_member WHERE tenant = $1 AND usr = $2 AND until IS NULL",
                [Self.name(user)])
        }
        var result: [SyncSpace: SyncRole] = [:]
        for row in 0..<found.rowCount {
            guard let role = SyncRole(rawValue: try found.string(row, 1)) else { continue }
            result[try Self.space(found, row, 0)] = role
        }
        return result
    }

    func nextMembershipChange(of user: String, after sequence: Int64) throws -> MembershipChange? {
        let found = try run(
            """
            SELECT at, space, joined FROM (
                SELECT since AS at, space, true AS joined FROM boutique_sync_server_member
                WHERE tenant = $1 AND usr = $2 AND since > $3
                UNION ALL
                SELECT until AS at, space, false AS joined FROM boutique_sync_server_member
                WHERE tenant = $1 AND usr = $2 AND until > $3) AS membership_change
            ORDER BY at LIMIT 1
            """,
            [Self.name(user), .int8(sequence)])
        guard found.rowCount > 0 else { return nil }
        return MembershipChange(sequence: try found.int64(0, 0), space: try Self.space(found, 0, 1), joined: try found.bool(0, 2))
    }

    func pruneMemberships(through sequence: Int64) throws {
        try write(
            "DELETE FROM boutique_sync_server_member WHERE tenant = $1 AND until IS NOT NULL AND until <= $2", [.int8(sequence)])
    }

    // MARK: Shapes

    /// The tenant's own: what one tenant's devices describe places only that tenant's rows.
    func tableShapes() throws -> [SyncTableShape] {
        let found = try connection.execute(
            "SELECT shape FROM boutique_sync_server_tenant_shape WHERE tenant = $1 ORDER BY tbl", [.text(tenant)])
        var shapes: [SyncTableShape] = []
        for row in 0..<found.rowCount {
            // A shape this code cannot read (a newer server's) is left out, as the SQLite store does.
            guard let shape = try? JSONDecoder().decode(SyncTableShape.self, from: Data(try found.bytes(row, 0))) else { continue }
            shapes.append(shape)
        }
        return shapes
    }

    func setTableShapes(_ shapes: [SyncTableShape]) throws {
        // Under the tenant's lock: another tenant's pushes write rows of their own.
        for shape in shapes.sorted(by: { Array($0.table.utf8).lexicographicallyPrecedes($1.table.utf8) }) {
            let json = String(decoding: try JSONEncoder().encode(shape), as: UTF8.self)
            try connection.execute(
                """
                INSERT INTO boutique_sync_server_tenant_shape(tenant, tbl, shape) VALUES ($1, $2, $3)
                ON CONFLICT (tenant, tbl) DO UPDATE SET shape = excluded.shape
                """,
                [.text(tenant), Self.name(shape.table), .text(json)])
        }
        guard !shapes.isEmpty else { return }
        _ = try tenantRow()
        try write("UPDATE boutique_sync_server_tenant SET shapes_version = shapes_version + 1 WHERE tenant = $1", [])
        shapesVersion += 1
    }

    func tableShapesVersion() throws -> Int64 {
        _ = try tenantRow()
        return shapesVersion
    }

    // MARK: Values

    /// A name a device sent, or a user: its UTF-8 bytes.
    private static func name(_ name: String) -> PostgreSQLValue { .bytea(Array(name.utf8)) }

    private static func value(_ space: SyncSpace) -> PostgreSQLValue { .bytea(Array(space.rawValue.utf8)) }

    private static func value(_ spaces: [SyncSpace]) -> PostgreSQLValue { .byteaArray(spaces.map { Array($0.rawValue.utf8) }) }

    /// `space`, `parent_tbl` and `parent_key`, the parent's both NULL for a row that follows nothing.
    private static func values(_ placement: RowPlacement) -> [PostgreSQLValue] {
        [value(placement.space), placement.parent.map { name($0.table) } ?? .null(.bytea),
         placement.parent.map { .bytea(PostgreSQLKey.encode($0.key)) } ?? .null(.bytea)]
    }

    private static func space(_ found: PostgreSQLResult, _ row: Int, _ column: Int) throws(BoutiqueError) -> SyncSpace {
        let text = try found.string(row, column)
        guard let space = SyncSpace(rawValue: text) else {
            throw .decoding(.init(table: "a PostgreSQL result", column: "\(column)", expectedType: "a space", found: "'\(text)'"))
        }
        return space
    }

    private static func parent(_ found: PostgreSQLResult, _ row: Int, _ column: Int) throws(BoutiqueError) -> SnapshotPosition? {
        guard try !found.isNull(row, column) else { return nil }
        return SnapshotPosition(table: try found.string(row, column), key: try PostgreSQLKey.decode(try found.bytes(row, column + 1)))
    }
}
