/// Refused transactions in the PostgreSQL store (``PostgreSQLStoreSchema``'s third migration): replica
/// ids, tables and keys as `bytea`, like every name a device sends.
extension PostgreSQLStoreTransaction {
    func recordRefusal(_ refusal: RefusedTransaction, replica: String) throws {
        try write(
            """
            INSERT INTO boutique_sync_server_refusal(tenant, replica, txn, tbl, key, reason) VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (tenant, replica, txn) DO UPDATE SET tbl = excluded.tbl, key = excluded.key, reason = excluded.reason
            """,
            [.bytea(Array(replica.utf8)), .int8(refusal.transactionID), .bytea(Array(refusal.table.utf8)),
             .bytea(PostgreSQLKey.encode(refusal.key)), .text(refusal.reason)])
    }

    func refusedTransactions(replica: String, from: Int64, through: Int64) throws -> [RefusedTransaction] {
        let found = try run(
            """
            SELECT txn, tbl, key, reason FROM boutique_sync_server_refusal
            WHERE tenant = $1 AND replica = $2 AND txn >= $3 AND txn <= $4 ORDER BY txn
            """,
            [.bytea(Array(replica.utf8)), .int8(from), .int8(through)])
        var refusals: [RefusedTransaction] = []
        for row in 0..<found.rowCount {
            refusals.append(RefusedTransaction(
                transactionID: try found.int64(row, 0), table: try found.string(row, 1),
                key: try PostgreSQLKey.decode(try found.bytes(row, 2)), reason: try found.string(row, 3)))
        }
        return refusals
    }

    func forgetRefusals(replica: String, through: Int64) throws {
        try write(
            "DELETE FROM boutique_sync_server_refusal WHERE tenant = $1 AND replica = $2 AND txn <= $3",
            [.bytea(Array(replica.utf8)), .int8(through)])
    }

    func forgetRefusals(replica: String, keepingNewest count: Int) throws {
        // The id of the newest one past the count (none: nothing is forgotten), one step down the key.
        try write(
            """
            DELETE FROM boutique_sync_server_refusal WHERE tenant = $1 AND replica = $2 AND txn <= (
                SELECT txn FROM boutique_sync_server_refusal WHERE tenant = $1 AND replica = $2 ORDER BY txn DESC LIMIT 1 OFFSET $3)
            """,
            [.bytea(Array(replica.utf8)), .int8(Int64(max(count, 0)))])
    }
}
