/// Prepared statements kept by SQL text, so that a statement run again is not compiled again.
struct StatementCache {
    private var statements: [String: Statement] = [:]

    /// Entries kept at most; past it the cache is cleared (cheap, and rare for an app's fixed SQL).
    var capacity = 256

    subscript(sql: String) -> Statement? {
        get { statements[sql] }
        set {
            if newValue != nil, statements[sql] == nil, statements.count >= capacity { removeAll() }
            statements[sql] = newValue
        }
    }

    var count: Int { statements.count }

    mutating func removeAll() {
        for statement in statements.values { statement.finalize() }
        statements.removeAll()
    }
}
