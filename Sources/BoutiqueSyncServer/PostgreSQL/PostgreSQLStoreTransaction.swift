/// One store transaction on a PostgreSQL connection, holding its tenant's advisory lock. Every value
/// is bound.
///
/// ```swift
/// let sequence = try await worker.transaction { connection in
///     let transaction = try PostgreSQLStoreTransaction(connection: connection, tenant: "acme")
///     let logged = try transaction.appendChange(change, origin: "device-1", batch: nil)
///     try transaction.finish()
///     return logged.sequence
/// }
/// ```
///
/// **Sequence order is commit order.** A pull returns the changes after its cursor and moves the cursor
/// to the last one; if sequence 7 could commit while 6 was still open, a pull that read 7 would never go
/// back for 6. So each transaction first takes `pg_advisory_xact_lock` on a 64-bit hash of its tenant
/// (`hashtextextended`), and sequence numbers come from the tenant's counter row, read and written
/// under that lock: the tenant's transactions run one after another across every server instance, and
/// each commits before the next can take a number. (A PostgreSQL `SEQUENCE` hands numbers out in the
/// order transactions ask, not the order they commit.) Two tenants whose hashes collide only wait for
/// each other.
///
/// **Isolation is READ COMMITTED**, on purpose: each statement reads what was committed when it
/// started, and every statement after the lock starts after the previous holder committed (PostgreSQL
/// makes a commit visible before it releases the transaction's locks). Under REPEATABLE READ the
/// snapshot would be taken by the first statement, the one that waits for the lock, and would miss
/// the commit it waited for.
///
/// **Reads take no lock** (``PostgreSQLSyncStore/read(tenant:_:)``): they run REPEATABLE READ, READ
/// ONLY, so every statement of one reads the same snapshot, taken by its first statement. That
/// snapshot holds a prefix of the tenant's log: a transaction takes its sequence numbers under the lock
/// and commits before it releases the lock, and the next one takes its numbers only after that, so a
/// change numbered 7 is never visible without 6 (6 committed before 7 was handed out). A pull that
/// moves a cursor to 7 passes nothing that can still commit, and a snapshot's rows and its latest
/// sequence come from the same commits. Pulls write nothing (the cursors they reach are written later,
/// by a transaction).
///
/// The tenant's counters are read once and written back once, by ``finish()``, which also sends
/// `pg_notify('boutique_sync', tenant)` when the transaction took a sequence number (a change
/// appended, a member joining or leaving a space, which ends a long poll's page too): PostgreSQL
/// delivers it when the transaction commits, and not at all when it rolls back.
final class PostgreSQLStoreTransaction: SyncStoreTransaction {
    /// The channel commits are announced on (``PostgreSQLCommitListener`` listens on it).
    static let channel = "boutique_sync"

    /// The transaction's connection; statements on the store-wide tables (the tables' shapes), which
    /// have no tenant, run on it directly.
    let connection: PostgreSQLConnection
    let tenant: String
    private var tenantState: (next: Int64, horizon: Int64, clock: Int64)?
    private var tenantChanged = false
    /// The tenant's ``SyncSpaceStoreTransaction/tableShapesVersion()``, read with its counters.
    var shapesVersion: Int64 = 0
    /// Whether a sequence number was taken (a change logged, a member joining or leaving): the commit
    /// is announced then, so that long polls on every instance look again.
    private var announces = false
    /// Row states read ahead or written by this transaction, `.some(nil)` for a row known to be
    /// absent (see `PostgreSQLStoreTransaction+Batches`).
    var knownRows: [RowName: RowRegister?] = [:]
    /// Log entries waiting to go as one statement.
    var logBatch = LogBatch()
    /// Row states waiting to go as one statement.
    var rowBatch = RowBatch()

    /// Whether this is a read: it takes no lock, and a tenant without a counters row reads as a new one.
    private let isReadOnly: Bool

    /// Takes the tenant's lock, waiting for any transaction of that tenant in progress elsewhere;
    /// a read (`isReadOnly`, in a REPEATABLE READ, READ ONLY transaction) takes none.
    init(connection: PostgreSQLConnection, tenant: String, isReadOnly: Bool = false) throws(BoutiqueError) {
        self.connection = connection
        self.tenant = tenant
        self.isReadOnly = isReadOnly
        if !isReadOnly {
            // Sent with the first statement that needs an answer, which then runs under the lock.
            try connection.executeLater("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [.text(tenant)])
        }
    }

    /// Writes the counters back and announces the commit, when there is one to announce.
    func finish() throws(BoutiqueError) {
        try sendBatches()
        if tenantChanged, let state = tenantState {
            try connection.executeLater(
                "UPDATE boutique_sync_server_tenant SET next_sequence = $2, horizon = $3, clock = $4 WHERE tenant = $1",
                [.text(tenant), .int8(state.next), .int8(state.horizon), .int8(state.clock)])
            tenantChanged = false
        }
        if announces {
            try connection.executeLater("SELECT pg_notify($1, $2)", [.text(Self.channel), .text(tenant)])
            announces = false
        }
    }

    /// Runs a statement with the tenant bound to `$1` and `parameters` to `$2`, `$3`, …
    func run(_ sql: String, _ parameters: [PostgreSQLValue]) throws(BoutiqueError) -> PostgreSQLResult {
        try sendBatches()
        return try connection.execute(sql, [.text(tenant)] + parameters)
    }

    /// ``run(_:_:)`` for a write whose result nobody reads: sent with the next statement that needs
    /// an answer, or with the commit (``PostgreSQLConnection/executeLater(_:_:)``).
    func write(_ sql: String, _ parameters: [PostgreSQLValue]) throws(BoutiqueError) {
        try sendBatches()
        try connection.executeLater(sql, [.text(tenant)] + parameters)
    }

    // MARK: Tenant

    /// Takes the tenant's next sequence number; written back by ``finish()``, which announces it.
    func takeSequence() throws(BoutiqueError) -> Int64 {
        var state = try tenantRow()
        let sequence = state.next
        state.next += 1
        tenantState = state
        tenantChanged = true
        announces = true
        return sequence
    }

    /// The tenant's counters, read once per transaction (and with them its shapes' version).
    func tenantRow() throws(BoutiqueError) -> (next: Int64, horizon: Int64, clock: Int64) {
        if let tenantState { return tenantState }
        let found = try run(
            "SELECT next_sequence, horizon, clock, shapes_version FROM boutique_sync_server_tenant WHERE tenant = $1", [])
        let state: (next: Int64, horizon: Int64, clock: Int64)
        if found.rowCount > 0 {
            state = (try found.int64(0, 0), try found.int64(0, 1), try found.int64(0, 2))
            shapesVersion = try found.int64(0, 3)
        } else if isReadOnly {
            state = (1, 0, 0)
        } else {
            try write(
                "INSERT INTO boutique_sync_server_tenant(tenant, next_sequence, horizon, clock) VALUES ($1, 1, 0, 0) ON CONFLICT DO NOTHING",
                [])
            state = (1, 0, 0)
        }
        tenantState = state
        return state
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

    private static let replicaColumns = "replica, applied_through, digest, pull_cursor, last_seen, retired, secret_hash"

    private static func replica(_ result: PostgreSQLResult, _ row: Int) throws(BoutiqueError) -> ReplicaRecord {
        ReplicaRecord(
            replica: try result.string(row, 0), appliedThrough: try result.int64(row, 1),
            digest: try result.optionalInt64(row, 2).map { UInt64(bitPattern: $0) }, cursor: try result.int64(row, 3),
            lastSeen: UInt64(bitPattern: try result.int64(row, 4)), isRetired: try result.bool(row, 5),
            secretHash: try result.isNull(row, 6) ? nil : try result.bytes(row, 6))
    }

    func replica(_ id: String) throws -> ReplicaRecord? {
        let found = try run(
            "SELECT \(Self.replicaColumns) FROM boutique_sync_server_replica WHERE tenant = $1 AND replica = $2",
            [.bytea(Array(id.utf8))])
        return found.rowCount > 0 ? try Self.replica(found, 0) : nil
    }

    func replicas() throws -> [ReplicaRecord] {
        let found = try run(
            "SELECT \(Self.replicaColumns) FROM boutique_sync_server_replica WHERE tenant = $1 ORDER BY replica", [])
        return try (0..<found.rowCount).map { row throws(BoutiqueError) in try Self.replica(found, row) }
    }

    func setReplica(_ record: ReplicaRecord) throws {
        try write(
            """
            INSERT INTO boutique_sync_server_replica(tenant, \(Self.replicaColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            ON CONFLICT (tenant, replica) DO UPDATE SET applied_through = excluded.applied_through, digest = excluded.digest,
                pull_cursor = excluded.pull_cursor, last_seen = excluded.last_seen, retired = excluded.retired,
                secret_hash = excluded.secret_hash
            """,
            [.bytea(Array(record.replica.utf8)), .int8(record.appliedThrough), .optionalInt8(record.digest.map { Int64(bitPattern: $0) }),
             .int8(record.cursor), .int8(Int64(bitPattern: record.lastSeen)), .bool(record.isRetired),
             record.secretHash.map { .bytea($0) } ?? .null(.bytea)])
    }

    // MARK: Rows

    func rowState(table: String, key: DatabaseValue) throws -> RowRegister? {
        let name = RowName(table: Array(table.utf8), key: PostgreSQLKey.encode(key))
        if let known = knownRows[name] { return known }
        let found = try run(
            "SELECT state FROM boutique_sync_server_row WHERE tenant = $1 AND tbl = $2 AND key = $3",
            [.bytea(Array(table.utf8)), .bytea(PostgreSQLKey.encode(key))])
        guard found.rowCount > 0 else { return nil }
        return try RowRegister(record: try found.bytes(0, 0))
    }

    func setRowState(_ state: RowRegister, table: String, key: DatabaseValue, sequence: Int64) throws {
        try batchRowState(state, name: RowName(table: Array(table.utf8), key: PostgreSQLKey.encode(key)), sequence: sequence)
    }

    func rowSequence(table: String, key: DatabaseValue) throws -> Int64? {
        let name = RowName(table: Array(table.utf8), key: PostgreSQLKey.encode(key))
        if let queued = rowBatch.latest[name] { return queued.sequence }
        let found = try run("SELECT sequence FROM boutique_sync_server_row WHERE tenant = $1 AND tbl = $2 AND key = $3", [.bytea(name.table), .bytea(name.key)])
        return found.rowCount > 0 ? try found.int64(0, 0) : nil
    }

    func replaceRowState(_ state: RowRegister, table: String, key: DatabaseValue) throws {
        let name = RowName(table: Array(table.utf8), key: PostgreSQLKey.encode(key))
        // After the batches (`write` sends them first), so that a state queued for the row is replaced too.
        try write("UPDATE boutique_sync_server_row SET state = $4 WHERE tenant = $1 AND tbl = $2 AND key = $3",
                [.bytea(name.table), .bytea(name.key), .bytea(state.record())])
        if knownRows[name] != nil { knownRows[name] = .some(state) }
    }

    func rows(after position: SnapshotPosition?, limit: Int) throws -> [SnapshotRow] {
        // A negative limit means no limit, as in SQLite (PostgreSQL refuses one; NULL is "all").
        let count = PostgreSQLValue.optionalInt8(limit < 0 ? nil : Int64(limit))
        let found: PostgreSQLResult
        switch position {
        case nil:
            found = try run("SELECT tbl, key, state FROM boutique_sync_server_row WHERE tenant = $1 ORDER BY tbl, key LIMIT $2", [count])
        case let position? where position.key.isNull:
            // SQLite's `key > NULL` is never true: only the tables after the position's follow.
            found = try run(
                "SELECT tbl, key, state FROM boutique_sync_server_row WHERE tenant = $1 AND tbl > $2 ORDER BY tbl, key LIMIT $3",
                [.bytea(Array(position.table.utf8)), count])
        case let position?:
            found = try run(
                """
                SELECT tbl, key, state FROM boutique_sync_server_row WHERE tenant = $1 AND (tbl, key) > ($2, $3)
                ORDER BY tbl, key LIMIT $4
                """,
                [.bytea(Array(position.table.utf8)), .bytea(PostgreSQLKey.encode(position.key)), count])
        }
        return try (0..<found.rowCount).map { row throws(BoutiqueError) in
            SnapshotRow(
                table: try found.string(row, 0), key: try PostgreSQLKey.decode(try found.bytes(row, 1)),
                state: try Self.rowRegister(try found.bytes(row, 2)))
        }
    }

    /// `octet_length(state)` reads a stored value's length, not the value (nor its TOAST pages).
    func rowSizes(after position: SnapshotPosition?, limit: Int) throws -> [Int] {
        let count = PostgreSQLValue.optionalInt8(limit < 0 ? nil : Int64(limit))
        let found: PostgreSQLResult
        switch position {
        case nil:
            found = try run(
                "SELECT octet_length(state)::int8 FROM boutique_sync_server_row WHERE tenant = $1 ORDER BY tbl, key LIMIT $2", [count])
        case let position? where position.key.isNull:
            found = try run(
                "SELECT octet_length(state)::int8 FROM boutique_sync_server_row WHERE tenant = $1 AND tbl > $2 ORDER BY tbl, key LIMIT $3",
                [.bytea(Array(position.table.utf8)), count])
        case let position?:
            found = try run(
                """
                SELECT octet_length(state)::int8 FROM boutique_sync_server_row WHERE tenant = $1 AND (tbl, key) > ($2, $3)
                ORDER BY tbl, key LIMIT $4
                """,
                [.bytea(Array(position.table.utf8)), .bytea(PostgreSQLKey.encode(position.key)), count])
        }
        return try Self.sizes(found)
    }

    /// The first column of every row of `found`, as sizes.
    static func sizes(_ found: PostgreSQLResult) throws(BoutiqueError) -> [Int] {
        var sizes: [Int] = []
        for row in 0..<found.rowCount { sizes.append(Int(try found.int64(row, 0))) }
        return sizes
    }

    /// An index-only scan of the primary key's range for the tenant when the visibility map is
    /// current (after autovacuum); asked once per bootstrap, not per page.
    func rowCount() throws -> Int? {
        let found = try run("SELECT count(*) FROM boutique_sync_server_row WHERE tenant = $1", [])
        return found.rowCount > 0 ? Int(try found.int64(0, 0)) : nil
    }

    func removeTombstones(through sequence: Int64) throws -> Int {
        let removed = try run("DELETE FROM boutique_sync_server_row WHERE tenant = $1 AND NOT alive AND sequence <= $2", [.int8(sequence)])
        knownRows.removeAll()
        return removed.affectedRows
    }

    /// `RowRegister(record:)` with a typed error, for the typed closures above.
    static func rowRegister(_ bytes: [UInt8]) throws(BoutiqueError) -> RowRegister {
        do { return try RowRegister(record: bytes) } catch {
            throw (error as? BoutiqueError) ?? .decoding(.init(
                table: "boutique_sync_server_row", column: "state", expectedType: "a row state", found: "\(error)"))
        }
    }

    // MARK: Log

    /// A change in the common space, where every change of a server without rules goes.
    func appendChange(_ change: SyncChange, origin: String, batch: Int64?) throws -> (sequence: Int64, batch: Int64) {
        try appendChange(change, origin: origin, batch: batch, space: .common, movedFrom: nil)
    }

    func changes(after sequence: Int64, limit: Int) throws -> [LoggedChange] {
        // The SQLite store's query: every change after `sequence` whose batch is at most the batch of
        // the `limit`-th one (all of them when there are fewer), so the answer ends with a whole batch.
        let found = try run(
            """
            SELECT sequence, batch, tbl, key, change, origin FROM boutique_sync_server_log
            WHERE tenant = $1 AND sequence > $2 AND batch <= coalesce((
                SELECT batch FROM boutique_sync_server_log WHERE tenant = $1 AND sequence > $2 ORDER BY sequence LIMIT 1 OFFSET $3),
                9223372036854775807)
            ORDER BY sequence
            """,
            [.int8(sequence), .int8(Int64(max(limit, 1) - 1))])
        return try Self.loggedChanges(found)
    }

    func changes(after sequence: Int64, through: Int64) throws -> [LoggedChange] {
        try Self.loggedChanges(run(
            """
            SELECT sequence, batch, tbl, key, change, origin FROM boutique_sync_server_log
            WHERE tenant = $1 AND sequence > $2 AND sequence <= $3 ORDER BY sequence
            """,
            [.int8(sequence), .int8(through)]))
    }

    /// Log rows (`sequence, batch, tbl, key, change, origin`) as changes.
    private static func loggedChanges(_ found: PostgreSQLResult) throws(BoutiqueError) -> [LoggedChange] {
        try (0..<found.rowCount).map { row throws(BoutiqueError) in
            let change = try ChangeRecord.decode(
                try found.bytes(row, 4), table: try found.string(row, 2), key: try PostgreSQLKey.decode(try found.bytes(row, 3)))
            return LoggedChange(
                entry: ServerChange(sequence: try found.int64(row, 0), change: change), batch: try found.int64(row, 1),
                origin: try found.string(row, 5))
        }
    }

    /// ``changes(after:limit:)``'s query, grouped by batch, counted through at most
    /// ``LogBatchSize/countedChanges(limit:)`` entries; `octet_length` reads no change.
    func batchSizes(after sequence: Int64, limit: Int) throws -> [LogBatchSize] {
        let found = try run(
            """
            SELECT batch, max(sequence), count(*)::int8, coalesce(sum(octet_length(change)), 0)::int8 FROM (
                SELECT batch, sequence, change FROM boutique_sync_server_log
                WHERE tenant = $1 AND sequence > $2 ORDER BY sequence LIMIT $4) AS counted
            WHERE batch <= coalesce((
                SELECT batch FROM boutique_sync_server_log WHERE tenant = $1 AND sequence > $2 ORDER BY sequence LIMIT 1 OFFSET $3),
                9223372036854775807)
            GROUP BY batch ORDER BY batch
            """,
            [.int8(sequence), .int8(Int64(max(limit, 1) - 1)), .int8(Int64(LogBatchSize.countedChanges(limit: limit)))])
        return try Self.batchSizes(found)
    }

    /// Rows of batch, last sequence, count and bytes.
    static func batchSizes(_ found: PostgreSQLResult) throws(BoutiqueError) -> [LogBatchSize] {
        var sizes: [LogBatchSize] = []
        for row in 0..<found.rowCount {
            sizes.append(LogBatchSize(
                batch: try found.int64(row, 0), last: try found.int64(row, 1), changes: Int(try found.int64(row, 2)),
                bytes: Int(try found.int64(row, 3))))
        }
        return sizes
    }

    func latestSequence() throws -> Int64 { try tenantRow().next - 1 }

    func logHorizon() throws -> Int64 { try tenantRow().horizon }

    func pruneLog(through sequence: Int64) throws {
        var state = try tenantRow()
        try write("DELETE FROM boutique_sync_server_log WHERE tenant = $1 AND sequence <= $2", [.int8(sequence)])
        state.horizon = max(state.horizon, sequence)
        tenantState = state
        tenantChanged = true
    }
}
