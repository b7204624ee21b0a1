/// Transactions sent in parts, in the SQLite store (`boutique_sync_server_staged` and
/// `boutique_sync_server_staged_change`), every value bound.
extension SQLiteStoreTransaction {
    func stagedTransaction(replica: String) throws -> StagedTransaction? {
        guard let row = try rows(
            """
            SELECT txn, stamp_time, stamp_writer, received_through, change_count, digest, updated FROM boutique_sync_server_staged
            WHERE tenant = ? AND replica = ?
            """,
            [.text(tenant), .text(replica)]
        ).first else { return nil }
        guard case .integer(let id) = row[0], case .integer(let time) = row[1], case .text(let writer) = row[2],
            case .integer(let through) = row[3], case .integer(let count) = row[4], case .integer(let digest) = row[5],
            case .integer(let updated) = row[6]
        else {
            throw BoutiqueError.decoding(.init(
                table: "boutique_sync_server_staged", column: "txn", expectedType: "a staged transaction", found: "\(row)"))
        }
        return StagedTransaction(
            transactionID: id, stamp: SyncStamp(time: HybridTimestamp(rawValue: UInt64(bitPattern: time)), replica: writer),
            receivedThrough: through, changeCount: Int(count), digestState: UInt64(bitPattern: digest), updated: UInt64(bitPattern: updated))
    }

    func setStagedTransaction(_ staged: StagedTransaction, replica: String) throws {
        try run(
            """
            INSERT OR REPLACE INTO boutique_sync_server_staged(
                tenant, replica, txn, stamp_time, stamp_writer, received_through, change_count, digest, updated)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [.text(tenant), .text(replica), .integer(staged.transactionID), .integer(Int64(bitPattern: staged.stamp.time.rawValue)),
             .text(staged.stamp.replica), .integer(staged.receivedThrough), .integer(Int64(staged.changeCount)),
             .integer(Int64(bitPattern: staged.digestState)), .integer(Int64(bitPattern: staged.updated))])
    }

    func stageChanges(_ changes: [SyncChange], replica: String, startingAt index: Int) throws -> Bool {
        for (offset, change) in changes.enumerated() {
            try run(
                """
                INSERT INTO boutique_sync_server_staged_change(tenant, replica, position, tbl, key, change) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT DO NOTHING
                """,
                [.text(tenant), .text(replica), .integer(Int64(index + offset)), .text(change.table), change.key,
                 .blob(ChangeRecord.encode(change))])
            if connection.changes == 0 {
                // A row a kept change already changes: the part is kept not even in part.
                try run(
                    "DELETE FROM boutique_sync_server_staged_change WHERE tenant = ? AND replica = ? AND position >= ?",
                    [.text(tenant), .text(replica), .integer(Int64(index))])
                return false
            }
        }
        return true
    }

    func stagedChanges(replica: String, from index: Int, limit: Int) throws -> [SyncChange] {
        try rows(
            """
            SELECT tbl, key, change FROM boutique_sync_server_staged_change
            WHERE tenant = ? AND replica = ? AND position >= ? ORDER BY position LIMIT ?
            """,
            [.text(tenant), .text(replica), .integer(Int64(index)), .integer(Int64(limit))]
        ).map { row in
            guard case .text(let table) = row[0], case .blob(let record) = row[2] else {
                throw BoutiqueError.decoding(.init(
                    table: "boutique_sync_server_staged_change", column: "change", expectedType: "a staged change", found: "\(row)"))
            }
            return try ChangeRecord.decode(record, table: table, key: row[1])
        }
    }

    func removeStagedTransaction(replica: String) throws {
        try run("DELETE FROM boutique_sync_server_staged_change WHERE tenant = ? AND replica = ?", [.text(tenant), .text(replica)])
        try run("DELETE FROM boutique_sync_server_staged WHERE tenant = ? AND replica = ?", [.text(tenant), .text(replica)])
    }

    func removeStagedTransactions(updatedThrough updated: UInt64) throws -> Int {
        let stale = try rows(
            "SELECT replica FROM boutique_sync_server_staged WHERE tenant = ? AND updated <= ?",
            [.text(tenant), .integer(Int64(bitPattern: updated))]
        ).compactMap { row -> String? in
            guard case .text(let replica)? = row.first else { return nil }
            return replica
        }
        for replica in stale { try removeStagedTransaction(replica: replica) }
        return stale.count
    }
}
