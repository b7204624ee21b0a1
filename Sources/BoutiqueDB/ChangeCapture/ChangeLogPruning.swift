import BoutiqueSQLite

/// Removes old transactions from `turso_cdc`, and tells how far back the retained log reaches.
///
/// ```swift
/// try ChangeLogPruning.prune(through: 120, on: writer)   // transactions committed at or before 120 go
/// let horizon = try ChangeLogPruning.horizon(on: reader)   // readers from a token below it missed changes
/// ```
///
/// Only whole transactions are removed. The latest COMMIT row always stays, as a lone row whose
/// transaction id is its own: Turso numbers new rows from the largest id present, so an empty log
/// would let it restart at 1 and tokens would go backwards. A lone COMMIT row is never written for a
/// real transaction (one that changed nothing writes no row), so it also marks where pruning stopped.
enum ChangeLogPruning {
    /// Deletes the transactions whose COMMIT row is at or before `changeID`.
    static func prune(through token: Int64, on connection: Connection) throws(SQLiteError) {
        // Rounded down to a COMMIT row, so that no transaction loses part of its rows.
        guard case .integer(let changeID)? = try connection.fetchValue(
            "SELECT change_id FROM turso_cdc WHERE change_type = 2 AND change_id <= ? ORDER BY change_id DESC LIMIT 1",
            [.integer(token)]),
            case .integer(let latest)? = try connection.fetchValue(
                "SELECT change_id FROM turso_cdc WHERE change_type = 2 ORDER BY change_id DESC LIMIT 1")
        else { return }
        guard changeID >= latest else {
            // The log keeps later transactions, so the table is not left empty.
            try connection.execute("DELETE FROM turso_cdc WHERE change_id <= ?", [.integer(changeID)])
            return
        }
        try connection.execute("DELETE FROM turso_cdc WHERE change_id < ?", [.integer(latest)])
        try connection.execute("UPDATE turso_cdc SET change_txn_id = change_id WHERE change_id = ?", [.integer(latest)])
    }

    /// The token below which the log has been pruned: a reader whose token is older missed changes.
    static func horizon(on connection: Connection) throws(SQLiteError) -> Int64 {
        let first = try connection.fetchRows(
            "SELECT change_id, change_txn_id, change_type FROM turso_cdc ORDER BY change_id LIMIT 1").rows.first
        guard let first, first.count == 3, case .integer(let id) = first[0] else {
            let counter = try connection.fetchValue("SELECT seq FROM sqlite_sequence WHERE name = 'turso_cdc'")
            if case .integer(let seq)? = counter { return seq }
            return 0
        }
        if first[2] == .integer(2), first[1] == .integer(id) { return id }
        if case .integer(let transaction) = first[1] { return min(id, transaction) - 1 }
        return id - 1
    }
}
