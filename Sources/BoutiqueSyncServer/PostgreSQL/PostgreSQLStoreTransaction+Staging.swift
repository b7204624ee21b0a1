/// Transactions sent in parts, in the PostgreSQL store (``PostgreSQLStoreSchema``'s seventh
/// migration): replica ids, writers, tables and keys as `bytea`, like every name a device sends. A
/// part's changes go as one multi-row statement.
extension PostgreSQLStoreTransaction {
    func stagedTransaction(replica: String) throws -> StagedTransaction? {
        let found = try run(
            """
            SELECT txn, stamp_time, stamp_writer, received_through, change_count, digest, updated FROM boutique_sync_server_staged
            WHERE tenant = $1 AND replica = $2
            """,
            [.bytea(Array(replica.utf8))])
        guard found.rowCount > 0 else { return nil }
        let time = HybridTimestamp(rawValue: UInt64(bitPattern: try found.int64(0, 1)))
        return StagedTransaction(
            transactionID: try found.int64(0, 0), stamp: SyncStamp(time: time, replica: try found.string(0, 2)),
            receivedThrough: try found.int64(0, 3), changeCount: Int(try found.int64(0, 4)),
            digestState: UInt64(bitPattern: try found.int64(0, 5)), updated: UInt64(bitPattern: try found.int64(0, 6)))
    }

    func setStagedTransaction(_ staged: StagedTransaction, replica: String) throws {
        try write(
            """
            INSERT INTO boutique_sync_server_staged(
                tenant, replica, txn, stamp_time, stamp_writer, received_through, change_count, digest, updated)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
            ON CONFLICT (tenant, replica) DO UPDATE SET txn = excluded.txn, stamp_time = excluded.stamp_time,
                stamp_writer = excluded.stamp_writer, received_through = excluded.received_through,
                change_count = excluded.change_count, digest = excluded.digest, updated = excluded.updated
            """,
            [.bytea(Array(replica.utf8)), .int8(staged.transactionID), .int8(Int64(bitPattern: staged.stamp.time.rawValue)),
             .bytea(Array(staged.stamp.replica.utf8)), .int8(staged.receivedThrough), .int8(Int64(staged.changeCount)),
             .int8(Int64(bitPattern: staged.digestState)), .int8(Int64(bitPattern: staged.updated))])
    }

    func stageChanges(_ changes: [SyncChange], replica: String, startingAt index: Int) throws -> Bool {
        guard !changes.isEmpty else { return true }
        let name = Array(replica.utf8)
        var start = 0
        while start < changes.count {
            let chunk = changes[start..<min(start + Self.batchLimit, changes.count)]
            let inserted = try run(
                """
                INSERT INTO boutique_sync_server_staged_change(tenant, replica, position, tbl, key, change)
                SELECT $1, $2, c.position, c.tbl, c.key, c.change
                FROM unnest($3::int8[], $4::bytea[], $5::bytea[], $6::bytea[]) AS c(position, tbl, key, change)
                ON CONFLICT DO NOTHING
                """,
                [.bytea(name), .int8Array(chunk.indices.map { Int64(index + $0) }), .byteaArray(chunk.map { Array($0.table.utf8) }),
                 .byteaArray(chunk.map { PostgreSQLKey.encode($0.key) }), .byteaArray(chunk.map { ChangeRecord.encode($0) })])
            if inserted.affectedRows != chunk.count {
                // A row a kept change already changes: the part is kept not even in part.
                try write(
                    "DELETE FROM boutique_sync_server_staged_change WHERE tenant = $1 AND replica = $2 AND position >= $3",
                    [.bytea(name), .int8(Int64(index))])
                return false
            }
            start += chunk.count
        }
        return true
    }

    func stagedChanges(replica: String, from index: Int, limit: Int) throws -> [SyncChange] {
        let found = try run(
            """
            SELECT tbl, key, change FROM boutique_sync_server_staged_change
            WHERE tenant = $1 AND replica = $2 AND position >= $3 ORDER BY position LIMIT $4
            """,
            [.bytea(Array(replica.utf8)), .int8(Int64(index)), .int8(Int64(limit))])
        var changes: [SyncChange] = []
        changes.reserveCapacity(found.rowCount)
        for row in 0..<found.rowCount {
            changes.append(try ChangeRecord.decode(
                try found.bytes(row, 2), table: try found.string(row, 0), key: try PostgreSQLKey.decode(try found.bytes(row, 1))))
        }
        return changes
    }

    func removeStagedTransaction(replica: String) throws {
        let name = Array(replica.utf8)
        try write("DELETE FROM boutique_sync_server_staged_change WHERE tenant = $1 AND replica = $2", [.bytea(name)])
        try write("DELETE FROM boutique_sync_server_staged WHERE tenant = $1 AND replica = $2", [.bytea(name)])
    }

    func removeStagedTransactions(updatedThrough updated: UInt64) throws -> Int {
        let through = PostgreSQLValue.int8(Int64(bitPattern: updated))
        try write(
            """
            DELETE FROM boutique_sync_server_staged_change AS c USING boutique_sync_server_staged AS s
            WHERE c.tenant = $1 AND s.tenant = $1 AND c.replica = s.replica AND s.updated <= $2
            """,
            [through])
        return try run("DELETE FROM boutique_sync_server_staged WHERE tenant = $1 AND updated <= $2", [through]).affectedRows
    }
}
