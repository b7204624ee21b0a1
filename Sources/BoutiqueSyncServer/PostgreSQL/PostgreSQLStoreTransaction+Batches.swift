/// A push's many small writes as a few multi-row statements, and its rows read in one.
///
/// A push of a thousand one-change transactions would read a row, append a log entry and write the
/// row back a thousand times: three statements per change, each a round trip or at least a
/// statement for PostgreSQL to run. Instead the rows the push changes are read together first
/// (``prefetchRowStates(_:)``, asked by the server before it applies the push) and kept, with what
/// the transaction writes to them, in ``knownRows``; log entries that move no row and row states
/// wait in ``logBatch`` and ``rowBatch`` and go as one `INSERT … SELECT … FROM unnest($2, $3, …)`
/// each (two for rows: those placed in a space by the write, and those whose placement stays),
/// every value an element of a bound array.
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
        var latest: [RowName: QueuedRow] = [:]
    }

    /// A row's state waiting to be written, with the placement its writes gave it (`nil`: the stored
    /// placement stays).
    struct QueuedRow {
        var state: [UInt8]
        var alive: Bool
        var sequence: Int64
        var placement: RowPlacement?
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

    /// Queues a row's state, replacing one queued for the same row, and its placement (`nil` keeps the
    /// placement stored or queued before).
    func batchRowState(_ state: RowRegister, name: RowName, sequence: Int64, placement: RowPlacement? = nil) throws(BoutiqueError) {
        let queued = rowBatch.latest[name]
        if queued == nil { rowBatch.order.append(name) }
        rowBatch.latest[name] = QueuedRow(
            state: state.record(), alive: state.isVisible, sequence: sequence, placement: placement ?? queued?.placement)
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
            var kept: [(name: RowName, row: QueuedRow)] = []
            var placed: [(name: RowName, row: QueuedRow, placement: RowPlacement)] = []
            for name in batch.order {
                guard let row = batch.latest[name] else { continue }
                if let placement = row.placement { placed.append((name, row, placement)) } else { kept.append((name, row)) }
            }
            if !kept.isEmpty {
                try connection.executeLater(
                    """
                    INSERT INTO boutique_sync_server_row(tenant, tbl, key, state, alive, sequence)
                    SELECT $1, r.tbl, r.key, r.state, r.alive, r.sequence
                    FROM unnest($2::bytea[], $3::bytea[], $4::bytea[], $5::bool[], $6::int8[]) AS r(tbl, key, state, alive, sequence)
                    ON CONFLICT (tenant, tbl, key) DO UPDATE SET state = excluded.state, alive = excluded.alive, sequence = excluded.sequence
                    """,
                    [.text(tenant), .byteaArray(kept.map(\.name.table)), .byteaArray(kept.map(\.name.key)),
                     .byteaArray(kept.map(\.row.state)), .boolArray(kept.map(\.row.alive)), .int8Array(kept.map(\.row.sequence))])
            }
            if !placed.isEmpty {
                // Arrays hold no NULL here: a row that follows no parent has `has_parent` false, and
                // its parent columns are written NULL from the empty placeholders.
                try connection.executeLater(
                    """
                    INSERT INTO boutique_sync_server_row(tenant, tbl, key, state, alive, sequence, space, parent_tbl, parent_key)
                    SELECT $1, r.tbl, r.key, r.state, r.alive, r.sequence, r.space,
                        CASE WHEN r.has_parent THEN r.parent_tbl END, CASE WHEN r.has_parent THEN r.parent_key END
                    FROM unnest($2::bytea[], $3::bytea[], $4::bytea[], $5::bool[], $6::int8[], $7::bytea[], $8::bool[], $9::bytea[], $10::bytea[])
                        AS r(tbl, key, state, alive, sequence, space, has_parent, parent_tbl, parent_key)
                    ON CONFLICT (tenant, tbl, key) DO UPDATE SET state = excluded.state, alive = excluded.alive,
                        sequence = excluded.sequence, space = excluded.space, parent_tbl = excluded.parent_tbl,
                        parent_key = excluded.parent_key
                    """,
                    [.text(tenant), .byteaArray(placed.map(\.name.table)), .byteaArray(placed.map(\.name.key)),
                     .byteaArray(placed.map(\.row.state)), .boolArray(placed.map(\.row.alive)), .int8Array(placed.map(\.row.sequence)),
                     .byteaArray(placed.map { Array($0.placement.space.rawValue.utf8) }),
                     .boolArray(placed.map { $0.placement.parent != nil }),
                     .byteaArray(placed.map { $0.placement.parent.map { Array($0.table.utf8) } ?? [] }),
                     .byteaArray(placed.map { $0.placement.parent.map { PostgreSQLKey.encode($0.key) } ?? [] })])
            }
        }
    }
}
