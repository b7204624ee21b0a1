/// A push's many small writes as a few multi-row statements, and its rows read in one.
///
/// A push of a thousand one-change transactions would read a row, append a log entry and write the
/// row back a thousand times: three statements per change, each a round trip or at least a
/// statement for PostgreSQL to run. Instead the rows the push changes are read together first
/// (``prefetchRowStates(_:)``, asked by the server before it applies the push) and kept, with what
/// the transaction writes to them, in ``knownRows``; log entries in the common space and row
/// states without placement wait in ``logBatch`` and ``rowBatch`` and go as one
/// `INSERT … SELECT … FROM unnest($2, $3, …)` each, every value an element of a bound array.
///
/// Order is kept where it matters: any other statement of the transaction (``run(_:_:)``,
/// ``write(_:_:)``) and the commit (``finish()``) send the batches first, so every read sees the
/// writes before it, and a row written twice goes once with its latest state (an upsert cannot
/// touch one row twice in one statement).
extension PostgreSQLStoreTransaction {
    /// A row's table and key as the store keeps them.
    struct RowName: Hashable {
        let table: [UInt8]
        let key: [UInt8]
    }

    /// Log entries waiting to be inserted, as the columns of one statement.
    struct LogBatch {
        var sequences: [Int64] = []
        var batches: [Int64] = []
        var tables: [[UInt8]] = []
        var keys: [[UInt8]] = []
        var changes: [[UInt8]] = []
        var origins: [[UInt8]] = []
        var spaces: [[UInt8]] = []
    }

    /// Row states waiting to be written: the latest state of each row, in the order rows were first
    /// written.
    struct RowBatch {
        var order: [RowName] = []
        var latest: [RowName: (state: [UInt8], alive: Bool, sequence: Int64)] = [:]
    }

    /// Entries a batch holds before it is sent anyway, bounding a statement's parameters.
    static let batchLimit = 2_000

    func prefetchRowStates(_ rows: [SnapshotPosition]) throws {
        var names: [RowName] = []
        var seen: Set<RowName> = []
        for row in rows {
            let name = RowName(table: Array(row.table.utf8), key: PostgreSQLKey.encode(row.key))
            guard knownRows[name] == nil, seen.insert(name).inserted else { continue }
            names.append(name)
        }
        var start = 0
        while start < names.count {
            let chunk = names[start..<min(start + Self.batchLimit, names.count)]
            start += chunk.count
            let found = try run(
                """
                SELECT r.tbl, r.key, r.state FROM unnest($2::bytea[], $3::bytea[]) AS wanted(tbl, key)
                JOIN boutique_sync_server_row AS r ON r.tenant = $1 AND r.tbl = wanted.tbl AND r.key = wanted.key
                """,
                [.byteaArray(chunk.map(\.table)), .byteaArray(chunk.map(\.key))])
            for name in chunk { knownRows[name] = .some(nil) }
            for row in 0..<found.rowCount {
                let name = RowName(table: try found.bytes(row, 0), key: try found.bytes(row, 1))
                knownRows[name] = .some(try Self.rowRegister(try found.bytes(row, 2)))
            }
        }
    }

    /// Queues a log entry of the common space.
    func batchLogEntry(
        sequence: Int64, batch: Int64, change: SyncChange, origin: String, space: SyncSpace
    ) throws(BoutiqueError) {
        logBatch.sequences.append(sequence)
        logBatch.batches.append(batch)
        logBatch.tables.append(Array(change.table.utf8))
        logBatch.keys.append(PostgreSQLKey.encode(change.key))
        logBatch.changes.append(ChangeRecord.encode(change))
        logBatch.origins.append(Array(origin.utf8))
        logBatch.spaces.append(Array(space.rawValue.utf8))
        if logBatch.sequences.count >= Self.batchLimit { try sendBatches() }
    }

    /// Queues a row's state (its placement untouched), replacing one queued for the same row.
    func batchRowState(_ state: RowRegister, name: RowName, sequence: Int64) throws(BoutiqueError) {
        if rowBatch.latest[name] == nil { rowBatch.order.append(name) }
        rowBatch.latest[name] = (state.record(), state.isVisible, sequence)
        knownRows[name] = .some(state)
        if rowBatch.order.count >= Self.batchLimit { try sendBatches() }
    }

    /// Queues the batches' statements on the connection (sent with its next round trip), so that
    /// whatever runs next runs after them.
    func sendBatches() throws(BoutiqueError) {
        if !logBatch.sequences.isEmpty {
            let batch = logBatch
            logBatch = LogBatch()
            try connection.executeLater(
                """
                INSERT INTO boutique_sync_server_log(tenant, sequence, batch, tbl, key, change, origin, space)
                SELECT $1, e.sequence, e.batch, e.tbl, e.key, e.change, e.origin, e.space
                FROM unnest($2::int8[], $3::int8[], $4::bytea[], $5::bytea[], $6::bytea[], $7::bytea[], $8::bytea[])
                    AS e(sequence, batch, tbl, key, change, origin, space)
                """,
                [.text(tenant), .int8Array(batch.sequences), .int8Array(batch.batches), .byteaArray(batch.tables),
                 .byteaArray(batch.keys), .byteaArray(batch.changes), .byteaArray(batch.origins), .byteaArray(batch.spaces)])
        }
        if !rowBatch.order.isEmpty {
            let batch = rowBatch
            rowBatch = RowBatch()
            let rows = batch.order.map { name in (name, batch.latest[name]!) }
            try connection.executeLater(
                """
                INSERT INTO boutique_sync_server_row(tenant, tbl, key, state, alive, sequence)
                SELECT $1, r.tbl, r.key, r.state, r.alive, r.sequence
                FROM unnest($2::bytea[], $3::bytea[], $4::bytea[], $5::bool[], $6::int8[]) AS r(tbl, key, state, alive, sequence)
                ON CONFLICT (tenant, tbl, key) DO UPDATE SET state = excluded.state, alive = excluded.alive, sequence = excluded.sequence
                """,
                [.text(tenant), .byteaArray(rows.map(\.0.table)), .byteaArray(rows.map(\.0.key)), .byteaArray(rows.map(\.1.state)),
                 .boolArray(rows.map(\.1.alive)), .int8Array(rows.map(\.1.sequence))])
        }
    }
}
