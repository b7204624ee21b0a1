import Foundation

/// Spaces in the SQLite store: `space`, `parent_tbl` and `parent_key` columns on the rows, `space` and
/// `moved_from` on the log, the members' history, and the tables' shapes. The log's lists of spaces are
/// bound as one JSON array (read with `json_each`), so a user in any number of spaces is one bound value.
extension SQLiteStoreTransaction {
    func placement(table: String, key: DatabaseValue) throws -> RowPlacement? {
        guard let row = try rows(
            "SELECT space, parent_tbl, parent_key FROM boutique_sync_server_row WHERE tenant = ? AND tbl = ? AND key = ?",
            [.text(tenant), .text(table), key]).first
        else { return nil }
        return RowPlacement(space: try Self.space(row[0], column: "space"), parent: Self.parent(row[1], row[2]))
    }

    func setRowState(_ state: RowRegister, table: String, key: DatabaseValue, sequence: Int64, placement: RowPlacement) throws {
        try run(
            """
            INSERT OR REPLACE INTO boutique_sync_server_row(tenant, tbl, key, state, alive, sequence, space, parent_tbl, parent_key)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [.text(tenant), .text(table), key, .blob(state.record()), .integer(state.isVisible ? 1 : 0), .integer(sequence),
             .text(placement.space.rawValue), placement.parent.map { .text($0.table) } ?? .null, placement.parent?.key ?? .null])
    }

    func setPlacement(_ placement: RowPlacement, table: String, key: DatabaseValue) throws {
        try run(
            "UPDATE boutique_sync_server_row SET space = ?, parent_tbl = ?, parent_key = ? WHERE tenant = ? AND tbl = ? AND key = ?",
            [.text(placement.space.rawValue), placement.parent.map { .text($0.table) } ?? .null, placement.parent?.key ?? .null,
             .text(tenant), .text(table), key])
    }

    func children(of parent: SnapshotPosition) throws -> [SnapshotPosition] {
        try rows(
            "SELECT tbl, key FROM boutique_sync_server_row WHERE tenant = ? AND parent_tbl = ? AND parent_key = ? ORDER BY tbl, key",
            [.text(tenant), .text(parent.table), parent.key]
        ).compactMap { row in
            guard case .text(let table) = row[0] else { return nil }
            return SnapshotPosition(table: table, key: row[1])
        }
    }

    /// Read on the space index, named: without statistics SQLite takes `tenant = ?` for a narrow range
    /// and prefers walking the primary key in (tbl, key) order, which reads the whole tenant for every
    /// space of a snapshot. The position is a row value, so a page starts where the last one ended
    /// instead of at the space's first row.
    func rows(in space: SyncSpace, after position: SnapshotPosition?, limit: Int) throws -> [SnapshotRow] {
        try spaceRows("tbl, key, state", in: space, after: position, limit: limit).map { row in
            guard case .text(let table) = row[0], case .blob(let bytes) = row[2] else {
                throw BoutiqueError.decoding(.init(
                    table: "boutique_sync_server_row", column: "state", expectedType: "a row state", found: "\(row)"))
            }
            return SnapshotRow(table: table, key: row[1], state: try RowRegister(record: bytes), space: space)
        }
    }

    /// On the space index, named, as ``rows(in:after:limit:)``.
    func rows(in space: SyncSpace, table: String, after key: DatabaseValue?, limit: Int) throws -> [SnapshotRow] {
        try spaceRows("key, state", in: space, table: table, after: key, limit: limit).map { row in
            guard case .blob(let bytes) = row[1] else {
                throw BoutiqueError.decoding(.init(
                    table: "boutique_sync_server_row", column: "state", expectedType: "a row state", found: "\(row)"))
            }
            return SnapshotRow(table: table, key: row[0], state: try RowRegister(record: bytes), space: space)
        }
    }

    /// The sizes of ``rows(in:after:limit:)``'s rows, on the same index.
    func rowSizes(in space: SyncSpace, after position: SnapshotPosition?, limit: Int) throws -> [Int] {
        try spaceRows("length(state)", in: space, after: position, limit: limit).map(Self.size)
    }

    /// The sizes of ``rows(in:table:after:limit:)``'s rows, on the same index.
    func rowSizes(in space: SyncSpace, table: String, after key: DatabaseValue?, limit: Int) throws -> [Int] {
        try spaceRows("length(state)", in: space, table: table, after: key, limit: limit).map(Self.size)
    }

    /// `columns` of a space's rows after `position`, in (table, key) order, on the space index.
    private func spaceRows(_ columns: String, in space: SyncSpace, after position: SnapshotPosition?, limit: Int) throws
        -> [[DatabaseValue]]
    {
        var sql = "SELECT \(columns) FROM boutique_sync_server_row INDEXED BY boutique_sync_server_row_space WHERE tenant = ? AND space = ?"
        var arguments: [DatabaseValue] = [.text(tenant), .text(space.rawValue)]
        if let position {
            sql += " AND (tbl, key) > (?, ?)"
            arguments += [.text(position.table), position.key]
        }
        return try rows(sql + " ORDER BY tbl, key LIMIT ?", arguments + [.integer(Int64(limit))])
    }

    /// `columns` of a space's rows of `table` after `key`, in key order, on the space index.
    private func spaceRows(_ columns: String, in space: SyncSpace, table: String, after key: DatabaseValue?, limit: Int) throws
        -> [[DatabaseValue]]
    {
        var sql = "SELECT \(columns) FROM boutique_sync_server_row INDEXED BY boutique_sync_server_row_space WHERE tenant = ? AND space = ? AND tbl = ?"
        var arguments: [DatabaseValue] = [.text(tenant), .text(space.rawValue), .text(table)]
        if let key {
            sql += " AND key > ?"
            arguments.append(key)
        }
        return try rows(sql + " ORDER BY key LIMIT ?", arguments + [.integer(Int64(limit))])
    }

    /// One count per space, each on the space index.
    func rowCount(in spaces: [SyncSpace]) throws -> Int {
        var total = 0
        for space in spaces {
            guard case .integer(let count)? = try rows(
                "SELECT count(*) FROM boutique_sync_server_row WHERE tenant = ? AND space = ?", [.text(tenant), .text(space.rawValue)]
            ).first?.first
            else { continue }
            total += Int(count)
        }
        return total
    }

    func appendChange(
        _ change: SyncChange, origin: String, batch: Int64?, space: SyncSpace, movedFrom: SyncSpace?
    ) throws -> (sequence: Int64, batch: Int64) {
        let sequence = try reserveSequence()
        let batch = batch ?? sequence
        try run(
            """
            INSERT INTO boutique_sync_server_log(tenant, sequence, batch, tbl, key, change, origin, space, moved_from)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [.text(tenant), .integer(sequence), .integer(batch), .text(change.table), change.key,
             .blob(ChangeRecord.encode(change)), .text(origin), .text(space.rawValue), movedFrom.map { .text($0.rawValue) } ?? .null])
        return (sequence, batch)
    }

    func changes(after: Int64, through: Int64, visibleIn spaces: [SyncSpace], batch: Int64?) throws -> [LoggedChange] {
        let json = Self.hexJSON(spaces)
        var arguments: [DatabaseValue] = [.text(tenant), .integer(after), .integer(through), .text(json), .text(json)]
        var sql = """
            SELECT sequence, batch, tbl, key, change, origin, space, moved_from FROM boutique_sync_server_log
            WHERE tenant = ? AND sequence > ? AND sequence <= ?
              AND (hex(space) IN (SELECT value FROM json_each(?)) OR (moved_from IS NOT NULL AND hex(moved_from) IN (SELECT value FROM json_each(?))))
            """
        if let batch {
            sql += " AND batch = ?"
            arguments.append(.integer(batch))
        }
        sql += " ORDER BY sequence"
        return try rows(sql, arguments).map { row in
            guard case .integer(let seq) = row[0], case .integer(let batch) = row[1], case .text(let table) = row[2],
                case .blob(let bytes) = row[4], case .text(let origin) = row[5]
            else {
                throw BoutiqueError.decoding(.init(
                    table: "boutique_sync_server_log", column: "change", expectedType: "a logged change", found: "\(row)"))
            }
            let change = try ChangeRecord.decode(bytes, table: table, key: row[3])
            let space = try Self.space(row[6], column: "space")
            let from = row[7] == .null ? nil : try Self.space(row[7], column: "moved_from")
            return LoggedChange(entry: ServerChange(sequence: seq, change: change, space: space), batch: batch, origin: origin, movedFrom: from)
        }
    }

    /// Every entry of the range's batches is counted (the last batch through at most
    /// ``LogBatchSize/countedChanges(limit:)`` sequence numbers), its size only when
    /// ``changes(after:through:visibleIn:batch:)`` would return it; `length(change)` reads a record's
    /// header only.
    func batchSizes(after: Int64, through: Int64, visibleIn spaces: [SyncSpace]) throws -> [LogBatchSize] {
        let json = Self.hexJSON(spaces)
        return try rows(
            """
            SELECT batch, max(sequence), count(*), coalesce(sum(CASE
                WHEN hex(space) IN (SELECT value FROM json_each(?))
                    OR (moved_from IS NOT NULL AND hex(moved_from) IN (SELECT value FROM json_each(?))) THEN length(change)
                ELSE 0 END), 0)
            FROM boutique_sync_server_log
            WHERE tenant = ? AND sequence > ? AND sequence <= ? AND batch <= coalesce((
                SELECT max(batch) FROM boutique_sync_server_log WHERE tenant = ? AND sequence > ? AND sequence <= ?), -1)
            GROUP BY batch ORDER BY batch
            """,
            [.text(json), .text(json), .text(tenant), .integer(after), .integer(LogBatchSize.countedThrough(after: after, through: through)),
             .text(tenant), .integer(after), .integer(through)]
        ).map(Self.batchSize)
    }

    func reserveSequence() throws -> Int64 {
        var state = try tenantRow()
        let sequence = state.next
        state.next += 1
        tenantState = state
        tenantChanged = true
        return sequence
    }

    // MARK: Members

    func members(of space: SyncSpace) throws -> [SyncMember] {
        try rows(
            "SELECT user, role FROM boutique_sync_server_member WHERE tenant = ? AND space = ? AND until IS NULL",
            [.text(tenant), .text(space.rawValue)]
        ).compactMap(Self.member(from:))
    }

    func noteConnected(_ user: String) throws {
        try run("INSERT OR IGNORE INTO boutique_sync_server_user(tenant, user) VALUES (?, ?)", [.text(tenant), .text(user)])
    }

    func hasConnected(_ user: String) throws -> Bool {
        try !rows("SELECT 1 FROM boutique_sync_server_user WHERE tenant = ? AND user = ?", [.text(tenant), .text(user)]).isEmpty
    }

    func setMember(_ user: String, role: SyncRole?, in space: SyncSpace, sequence: Int64) throws {
        let current = try rows(
            "SELECT since FROM boutique_sync_server_member WHERE tenant = ? AND space = ? AND user = ? AND until IS NULL",
            [.text(tenant), .text(space.rawValue), .text(user)]).first?.first
        switch (role, current) {
        case (let role?, let since?):
            try run(
                "UPDATE boutique_sync_server_member SET role = ? WHERE tenant = ? AND space = ? AND user = ? AND since = ?",
                [.text(role.rawValue), .text(tenant), .text(space.rawValue), .text(user), since])
        case (let role?, nil):
            try run(
                "INSERT INTO boutique_sync_server_member(tenant, space, user, role, since, until) VALUES (?, ?, ?, ?, ?, NULL)",
                [.text(tenant), .text(space.rawValue), .text(user), .text(role.rawValue), .integer(sequence)])
        case (nil, let since?):
            try run(
                "UPDATE boutique_sync_server_member SET until = ? WHERE tenant = ? AND space = ? AND user = ? AND since = ?",
                [.integer(sequence), .text(tenant), .text(space.rawValue), .text(user), since])
        case (nil, nil):
            break
        }
    }

    /// Read on the members' user index, named: without statistics SQLite would walk the primary key's
    /// `tenant = ?` range, every member of every space of the tenant, for one user's spaces.
    func memberships(of user: String, at sequence: Int64?) throws -> [SyncSpace: SyncRole] {
        let found: [[DatabaseValue]]
        if let sequence {
            found = try rows(
                """
                SELECT space, role FROM boutique_sync_server_member INDEXED BY boutique_sync_server_member_user
                WHERE tenant = ? AND user = ? AND since <= ? AND (until IS NULL OR until > ?)
                """,
                [.text(tenant), .text(user), .integer(sequence), .integer(sequence)])
        } else {
            found = try rows(
                """
                SELECT space, role FROM boutique_sync_server_member INDEXED BY boutique_sync_server_member_user
                WHERE tenant = ? AND user = ? AND until IS NULL
                """,
                [.text(tenant), .text(user)])
        }
        var result: [SyncSpace: SyncRole] = [:]
        for row in found {
            guard case .text(let name) = row[1], let role = SyncRole(rawValue: name) else { continue }
            result[try Self.space(row[0], column: "space")] = role
        }
        return result
    }

    /// Asked by every pull: both halves read the user's own memberships on the user index (named, as
    /// in ``memberships(of:at:)``), not every member of the tenant.
    func nextMembershipChange(of user: String, after sequence: Int64) throws -> MembershipChange? {
        guard let row = try rows(
            """
            SELECT at, space, joined FROM (
                SELECT since AS at, space, 1 AS joined FROM boutique_sync_server_member INDEXED BY boutique_sync_server_member_user
                WHERE tenant = ? AND user = ? AND since > ?
                UNION ALL
                SELECT until AS at, space, 0 AS joined FROM boutique_sync_server_member INDEXED BY boutique_sync_server_member_user
                WHERE tenant = ? AND user = ? AND until > ?)
            ORDER BY at LIMIT 1
            """,
            [.text(tenant), .text(user), .integer(sequence), .text(tenant), .text(user), .integer(sequence)]).first,
            case .integer(let at) = row[0], case .integer(let joined) = row[2]
        else { return nil }
        return MembershipChange(sequence: at, space: try Self.space(row[1], column: "space"), joined: joined != 0)
    }

    func pruneMemberships(through sequence: Int64) throws {
        try run(
            "DELETE FROM boutique_sync_server_member WHERE tenant = ? AND until IS NOT NULL AND until <= ?",
            [.text(tenant), .integer(sequence)])
    }

    // MARK: Shapes

    func tableShapes() throws -> [SyncTableShape] {
        try rows("SELECT shape FROM boutique_sync_server_tenant_shape WHERE tenant = ? ORDER BY tbl", [.text(tenant)]).compactMap { row in
            guard case .text(let json) = row[0] else { return nil }
            return try? JSONDecoder().decode(SyncTableShape.self, from: Data(json.utf8))
        }
    }

    func setTableShapes(_ shapes: [SyncTableShape]) throws {
        for shape in shapes {
            let json = String(decoding: try JSONEncoder().encode(shape), as: UTF8.self)
            try run(
                "INSERT OR REPLACE INTO boutique_sync_server_tenant_shape(tenant, tbl, shape) VALUES (?, ?, ?)",
                [.text(tenant), .text(shape.table), .text(json)])
        }
        guard !shapes.isEmpty else { return }
        _ = try tenantRow()
        try run("UPDATE boutique_sync_server_tenant SET shapes_version = shapes_version + 1 WHERE tenant = ?", [.text(tenant)])
        shapesVersion += 1
    }

    func tableShapesVersion() throws -> Int64 {
        _ = try tenantRow()
        return shapesVersion
    }

    // MARK: Decoding

    private static func parent(_ table: DatabaseValue, _ key: DatabaseValue) -> SnapshotPosition? {
        guard case .text(let name) = table else { return nil }
        return SnapshotPosition(table: name, key: key)
    }

    private static func member(from row: [DatabaseValue]) -> SyncMember? {
        guard case .text(let user) = row[0], case .text(let name) = row[1], let role = SyncRole(rawValue: name) else { return nil }
        return SyncMember(user: user, role: role)
    }

    /// The spaces as a JSON array of the hex of their UTF-8 bytes, as SQLite's `hex()` writes them: a
    /// space holds a device's key, which may hold a NUL character that `json_each` would cut the text at.
    static func hexJSON(_ spaces: [SyncSpace]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        let hex = spaces.map { space in
            var text: [UInt8] = []
            for byte in space.rawValue.utf8 {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 15)])
            }
            return "\"" + String(decoding: text, as: UTF8.self) + "\""
        }
        return "[" + hex.joined(separator: ",") + "]"
    }
}
