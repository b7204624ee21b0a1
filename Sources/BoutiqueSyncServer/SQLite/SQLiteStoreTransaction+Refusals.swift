/// Refused transactions in the SQLite store (`boutique_sync_server_refusal`), every value bound.
extension SQLiteStoreTransaction {
    func recordRefusal(_ refusal: RefusedTransaction, replica: String) throws {
        try run(
            "INSERT OR REPLACE INTO boutique_sync_server_refusal(tenant, replica, txn, tbl, key, reason) VALUES (?, ?, ?, ?, ?, ?)",
            [.text(tenant), .text(replica), .integer(refusal.transactionID), .text(refusal.table), refusal.key, .text(refusal.reason)])
    }

    func refusedTransactions(replica: String, from: Int64, through: Int64) throws -> [RefusedTransaction] {
        try rows(
            """
            SELECT txn, tbl, key, reason FROM boutique_sync_server_refusal
            WHERE tenant = ? AND replica = ? AND txn >= ? AND txn <= ? ORDER BY txn
            """,
            [.text(tenant), .text(replica), .integer(from), .integer(through)]
        ).compactMap { row in
            guard case .integer(let id) = row[0], case .text(let table) = row[1], case .text(let reason) = row[3] else { return nil }
            return RefusedTransaction(transactionID: id, table: table, key: row[2], reason: reason)
        }
    }

    func forgetRefusals(replica: String, through: Int64) throws {
        try run(
            "DELETE FROM boutique_sync_server_refusal WHERE tenant = ? AND replica = ? AND txn <= ?",
            [.text(tenant), .text(replica), .integer(through)])
    }

    func forgetRefusals(replica: String, keepingNewest count: Int) throws {
        // The id of the newest one past the count (none: nothing is forgotten), one step down the key.
        try run(
            """
            DELETE FROM boutique_sync_server_refusal WHERE tenant = ? AND replica = ? AND txn <= (
                SELECT txn FROM boutique_sync_server_refusal WHERE tenant = ? AND replica = ? ORDER BY txn DESC LIMIT 1 OFFSET ?)
            """,
            [.text(tenant), .text(replica), .text(tenant), .text(replica), .integer(Int64(max(count, 0)))])
    }
}
