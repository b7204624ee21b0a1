import CSQLite

/// Questions about SQL text that SQLite answers without a database.
enum SQLText {
    /// `true` when `sql` ends a complete statement (`sqlite3_complete`): a `;` outside quotes,
    /// comments and trigger bodies.
    static func isComplete(_ sql: String) -> Bool {
        sqlite3_complete(sql) != 0
    }
}
