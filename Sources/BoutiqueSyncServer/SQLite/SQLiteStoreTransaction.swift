/// One store transaction on the writer connection, or a read on a reader connection. Every value is
/// bound.
///
/// The tenant's counters are read once and written back once, when the transaction ends
/// (``finish()``), instead of once per logged change.
final class SQLiteStoreTransaction: SyncStoreTransaction {
    let connection: Connection
    let tenant: String
    /// A read on a reader connection: a tenant without a counters row reads as a new one, and none is
    /// inserted.
    let isReadOnly: Bool
    var tenantState: (next: Int64, horizon: Int64, clock: Int64)?
    var tenantChanged = false
    /// The tenant's ``SyncSpaceStoreTransaction/tableShapesVersion()``, read with its counters.
    var shapesVersion: Int64 = 0

    init(connection: Connection, tenant: String, isReadOnly: Bool = false) {
        self.connection = connection
        self.tenant = tenant
        self.isReadOnly = isReadOnly
    }

    /// Writes the counters back.
    func finish() throws {
        guard tenantChanged, let state = tenantState else { return }
        try run(
            "UPDATE boutique_sync_server_tenant SET next_sequence = ?, horizon = ?, clock = ? WHERE tenant = ?",
            [.integer(state.next), .integer(state.horizon), .integer(state.clock), .text(tenant)])
        tenantChanged = false
    }

    func rows(_ sql: String, _ arguments: [DatabaseValue]) throws -> [[DatabaseValue]] {
        try connection.cachedRows(sql, arguments)
    }

    func run(_ sql: String, _ arguments: [DatabaseValue]) throws {
        try connection.execute(sql, arguments)
    }

    // MARK: Tenant

    func tenantRow() throws -> (next: Int64, horizon: Int64, clock: Int64) {
        if let tenantState { return tenantState }
        let state = try readTenantRow()
        tenantState = state
        return state
    }

    private func readTenantRow() throws -> (next: Int64, horizon: Int64, clock: Int64) {
        let found = try rows(
            "SELECT next_sequence, horizon, clock, shapes_version FROM boutique_sync_server_tenant WHERE tenant = ?", [.text(tenant)])
        guard let row = found.first, case .integer(let next) = row[0], case .integer(let horizon) = row[1],
            case .integer(let clock) = row[2], case .integer(let shapesVersion) = row[3]
        else {
            guard !isReadOnly else { return (1, 0, 0) }
            try run("INSERT INTO boutique_sync_server_tenant(tenant, next_sequence, horizon, clock) VALUES (?, 1, 0, 0)", [.text(tenant)])
            return (1, 0, 0)
        }
        self.shapesVersion = shapesVersion
        return (next, horizon, clock)
    }

    func clock() throws -> HybridTimestamp {
        HybridTimestamp(rawValue: UInt64(bitPattern: try tenantRow().clock))
    }

    func setClock(_ time: HybridTimestamp) throws {
        var state = try tenantRow()
        state.clock = Int64(bitPattern: time.rawValue)
        tenantState = state
        tenantChanged = true
    }

    // MARK: Replicas

    private static func replica(from row: [DatabaseValue]) -> ReplicaRecord? {
        guard row.count == 7, case .text(let id) = row[0], case .integer(let through) = row[1],
            case .integer(let cursor) = row[3], case .integer(let seen) = row[4], case .integer(let retired) = row[5]
        else { return nil }
        var digest: UInt64?
        if case .integer(let value) = row[2] { digest = UInt64(bitPattern: value) }
        var secretHash: [UInt8]?
        if case .blob(let hash) = row[6] { secretHash = hash }
        return ReplicaRecord(
            replica: id, appliedThrough: through, digest: digest, cursor: cursor,
            lastSeen: UInt64(bitPattern: seen), isRetired: retired != 0, secretHash: secretHash)
    }

    func replica(_ id: String) throws -> ReplicaRecord? {
        try rows(
            "SELECT replica, applied_through, digest, cursor, last_seen, retired, secret_hash FROM boutique_sync_server_replica WHERE tenant = ? AND replica = ?",
            [.text(tenant), .text(id)]
        ).first.flatMap(Self.replica(from:))
    }

    func replicas() throws -> [ReplicaRecord] {
        try rows(
            "SELECT replica, applied_through, digest, cursor, last_seen, retired, secret_hash FROM boutique_sync_server_replica WHERE tenant = ? ORDER BY replica",
            [.text(tenant)]
        ).compactMap(Self.replica(from:))
    }

    func setReplica(_ record: ReplicaRecord) throws {
        try run(
            """
            INSERT OR REPLACE INTO boutique_sync_server_replica(
                tenant, replica, applied_through, digest, cursor, last_seen, retired, secret_hash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [.text(tenant), .text(record.replica), .integer(record.appliedThrough),
             record.digest.map { .integer(Int64(bitPattern: $0)) } ?? .null, .integer(record.cursor),
             .integer(Int64(bitPattern: record.lastSeen)), .integer(record.isRetired ? 1 : 0), record.secretHash.map { .blob($0) } ?? .null])
    }

    // MARK: Rows

    func rowState(table: String, key: DatabaseValue) throws -> RowRegister? {
        guard let row = try rows(
            "SELECT state FROM boutique_sync_server_row WHERE tenant = ? AND tbl = ? AND key = ?",
            [.text(tenant), .text(table), key]).first, case .blob(let bytes) = row[0]
        else { return nil }
        return try RowRegister(record: bytes)
    }

    func setRowState(_ state: RowRegister, table: String, key: DatabaseValue, sequence: Int64) throws {
        try run(
            "INSERT OR REPLACE INTO boutique_sync_server_row(tenant, tbl, key, state, alive, sequence) VALUES (?, ?, ?, ?, ?, ?)",
            [.text(tenant), .text(table), key, .blob(state.record()), .integer(state.isVisible ? 1 : 0), .integer(sequence)])
    }

    func rowSequence(table: String, key: DatabaseValue) throws -> Int64? {
        let found = try rows("SELECT sequence FROM boutique_sync_server_row WHERE tenant = ? AND tbl = ? AND key = ?", [.text(tenant), .text(table), key])
        guard case .integer(let sequence)? = found.first?.first else { return nil }
        return sequence
    }

    func replaceRowState(_ state: RowRegister, table: String, key: DatabaseValue) throws {
        try run("UPDATE boutique_sync_server_row SET state = ? WHERE tenant = ? AND tbl = ? AND key = ?",
                [.blob(state.record()), .text(tenant), .text(table), key])
    }

    /// The row value `(tbl, key) > (?, ?)` is a range of the primary key, so a page costs the rows it
    /// returns; spelled as `tbl > ? OR (tbl = ? AND key > ?)`, SQLite scanned the tenant's rows from
    /// the first for every page, and a bootstrap took time growing with the square of the rows.
    func rows(after position: SnapshotPosition?, limit: Int) throws -> [SnapshotRow] {
        let found: [[DatabaseValue]]
        if let position {
            found = try rows(
                """
                SELECT tbl, key, state FROM boutique_sync_server_row WHERE tenant = ? AND (tbl, key) > (?, ?)
                ORDER BY tbl, key LIMIT ?
                """,
                [.text(tenant), .text(position.table), position.key, .integer(Int64(limit))])
        } else {
            found = try rows(
                "SELECT tbl, key, state FROM boutique_sync_server_row WHERE tenant = ? ORDER BY tbl, key LIMIT ?",
                [.text(tenant), .integer(Int64(limit))])
        }
        return try found.map { row in
            guard case .text(let table) = row[0], case .blob(let bytes) = row[2] else {
                throw BoutiqueError.decoding(.init(
                    table: "boutique_sync_server_row", column: "state", expectedType: "a row state", found: "\(row)"))
            }
            return SnapshotRow(table: table, key: row[1], state: try RowRegister(record: bytes))
        }
    }

    /// `length(state)` reads a record's header only, not the state's pages; the position is a range of
    /// the primary key, as in ``rows(after:limit:)``.
    func rowSizes(after position: SnapshotPosition?, limit: Int) throws -> [Int] {
        let found: [[DatabaseValue]]
        if let position {
            found = try rows(
                """
                SELECT length(state) FROM boutique_sync_server_row WHERE tenant = ? AND (tbl, key) > (?, ?)
                ORDER BY tbl, key LIMIT ?
                """,
                [.text(tenant), .text(position.table), position.key, .integer(Int64(limit))])
        } else {
            found = try rows(
                "SELECT length(state) FROM boutique_sync_server_row WHERE tenant = ? ORDER BY tbl, key LIMIT ?",
                [.text(tenant), .integer(Int64(limit))])
        }
        return found.map(Self.size)
    }

    /// A size a query read, 0 when it read none.
    static func size(_ row: [DatabaseValue]) -> Int {
        guard case .integer(let bytes)? = row.first else { return 0 }
        return Int(bytes)
    }

    /// Counted on the covering index `boutique_sync_server_row_dead` (tenant, alive, sequence), which
    /// SQLite picks as the narrowest: the tenant's range of small index entries, no row state read.
    /// Asked once per bootstrap, not per page.
    func rowCount() throws -> Int? {
        guard case .integer(let count)? = try rows(
            "SELECT count(*) FROM boutique_sync_server_row WHERE tenant = ?", [.text(tenant)]).first?.first
        else { return nil }
        return Int(count)
    }

    func removeTombstones(through sequence: Int64) throws -> Int {
        try run("DELETE FROM boutique_sync_server_row WHERE tenant = ? AND alive = 0 AND sequence <= ?",
                [.text(tenant), .integer(sequence)])
        return connection.changes
    }

    // MARK: Log

    /// A change of the common space (a server without rules puts every row there).
    func appendChange(_ change: SyncChange, origin: String, batch: Int64?) throws -> (sequence: Int64, batch: Int64) {
        try appendChange(change, origin: origin, batch: batch, space: .common, movedFrom: nil)
    }

    func changes(after sequence: Int64, limit: Int) throws -> [LoggedChange] {
        let found = try rows(
            """
            SELECT sequence, batch, tbl, key, change, origin FROM boutique_sync_server_log
            WHERE tenant = ? AND sequence > ? AND batch <= coalesce((
                SELECT batch FROM boutique_sync_server_log WHERE tenant = ? AND sequence > ? ORDER BY sequence LIMIT 1 OFFSET ?),
                9223372036854775807)
            ORDER BY sequence
            """,
            [.text(tenant), .integer(sequence), .text(tenant), .integer(sequence),
             .integer(Int64(max(limit, 1) - 1))])
        return try Self.loggedChanges(found)
    }

    func changes(after sequence: Int64, through: Int64) throws -> [LoggedChange] {
        try Self.loggedChanges(rows(
            """
            SELECT sequence, batch, tbl, key, change, origin FROM boutique_sync_server_log
            WHERE tenant = ? AND sequence > ? AND sequence <= ? ORDER BY sequence
            """,
            [.text(tenant), .integer(sequence), .integer(through)]))
    }

    /// Log rows (`sequence, batch, tbl, key, change, origin`) as changes.
    private static func loggedChanges(_ found: [[DatabaseValue]]) throws -> [LoggedChange] {
        try found.map { row in
            guard case .integer(let seq) = row[0], case .integer(let batch) = row[1], case .text(let table) = row[2],
                case .blob(let bytes) = row[4], case .text(let origin) = row[5]
            else {
                throw BoutiqueError.decoding(.init(
                    table: "boutique_sync_server_log", column: "change", expectedType: "a logged change", found: "\(row)"))
            }
            let change = try ChangeRecord.decode(bytes, table: table, key: row[3])
            return LoggedChange(entry: ServerChange(sequence: seq, change: change), batch: batch, origin: origin)
        }
    }

    /// The batches of ``changes(after:limit:)``'s query, grouped, counted through at most
    /// ``LogBatchSize/countedChanges(limit:)`` entries; `length(change)` reads a record's header only,
    /// not the change's pages.
    func batchSizes(after sequence: Int64, limit: Int) throws -> [LogBatchSize] {
        try rows(
            """
            SELECT batch, max(sequence), count(*), coalesce(sum(length(change)), 0) FROM (
                SELECT batch, sequence, change FROM boutique_sync_server_log
                WHERE tenant = ? AND sequence > ? ORDER BY sequence LIMIT ?)
            WHERE batch <= coalesce((
                SELECT batch FROM boutique_sync_server_log WHERE tenant = ? AND sequence > ? ORDER BY sequence LIMIT 1 OFFSET ?),
                9223372036854775807)
            GROUP BY batch ORDER BY batch
            """,
            [.text(tenant), .integer(sequence), .integer(Int64(LogBatchSize.countedChanges(limit: limit))), .text(tenant),
             .integer(sequence), .integer(Int64(max(limit, 1) - 1))]
        ).map(Self.batchSize)
    }

    /// A row of a batch-size query: batch, last sequence, count, bytes.
    static func batchSize(_ row: [DatabaseValue]) throws -> LogBatchSize {
        guard row.count == 4, case .integer(let batch) = row[0], case .integer(let last) = row[1], case .integer(let count) = row[2]
        else {
            throw BoutiqueError.decoding(.init(
                table: "boutique_sync_server_log", column: "batch", expectedType: "a batch's size", found: "\(row)"))
        }
        return LogBatchSize(batch: batch, last: last, changes: Int(count), bytes: size(Array(row[3...])))
    }

    /// Decodes a space a store column holds.
    static func space(_ value: DatabaseValue, column: String) throws -> SyncSpace {
        guard case .text(let text) = value, let space = SyncSpace(rawValue: text) else {
            throw BoutiqueError.decoding(.init(table: "boutique_sync_server_row", column: column, expectedType: "a space", found: "\(value)"))
        }
        return space
    }

    func latestSequence() throws -> Int64 { try tenantRow().next - 1 }

    func logHorizon() throws -> Int64 { try tenantRow().horizon }

    func pruneLog(through sequence: Int64) throws {
        var state = try tenantRow()
        try run("DELETE FROM boutique_sync_server_log WHERE tenant = ? AND sequence <= ?", [.text(tenant), .integer(sequence)])
        state.horizon = max(state.horizon, sequence)
        tenantState = state
        tenantChanged = true
    }
}
