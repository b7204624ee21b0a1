/// Prepared statements kept by SQL text, so that a statement run again is not compiled again.
struct StatementCache {
    private var statements: [String: Statement] = [:]

    /// Entries kept at most; past it the cache is emptied (cheap, and rare for an app's fixed SQL).
    var capacity = 256

    subscript(sql: String) -> Statement? {
        get { statements[sql] }
        set {
            // Evicted statements are only dropped, not finalized: a caller may still be stepping one of
            // them. Each is finalized when its last reference goes, or when the connection closes.
            if newValue != nil, statements[sql] == nil, statements.count >= capacity { statements.removeAll() }
            statements[sql] = newValue
        }
    }

    var count: Int { statements.count }

    mutating func removeAll() {
        for statement in statements.values { statement.finalize() }
        statements.removeAll()
    }
}
