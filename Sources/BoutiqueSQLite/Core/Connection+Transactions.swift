import CSQLite

/// How `BEGIN` takes its locks.
public enum TransactionKind: String, Sendable {
    /// Locks are taken when first needed.
    case deferred = "DEFERRED"
    /// The write lock is taken at once, so the transaction cannot fail later with `SQLITE_BUSY` upgrading.
    case immediate = "IMMEDIATE"
    /// Like immediate; in rollback-journal mode readers are kept out too.
    case exclusive = "EXCLUSIVE"

    /// The statement that begins a transaction of this kind (a literal: nothing to build per transaction).
    var beginStatement: String {
        switch self {
        case .deferred: "BEGIN DEFERRED TRANSACTION"
        case .immediate: "BEGIN IMMEDIATE TRANSACTION"
        case .exclusive: "BEGIN EXCLUSIVE TRANSACTION"
        }
    }
}

extension Connection {
    /// Starts a transaction.
    public func beginTransaction(_ kind: TransactionKind = .deferred) throws(SQLiteError) {
        try runTransactionControl(kind.beginStatement)
    }

    /// Commits the current transaction.
    public func commit() throws(SQLiteError) { try runTransactionControl("COMMIT TRANSACTION") }

    /// Rolls back the current transaction; harmless when none is open.
    ///
    /// - Throws: the closed-connection error after ``close()``.
    public func rollback() throws(SQLiteError) {
        let db = try requireHandle(sql: "ROLLBACK TRANSACTION")
        guard sqlite3_get_autocommit(db) == 0 else { return }
        try runTransactionControl("ROLLBACK TRANSACTION")
    }

    /// Runs `BEGIN`, `COMMIT` or `ROLLBACK` from the statement cache: a connection runs them for every
    /// transaction, and compiling the two of them each time was about a seventh of a one-row write.
    private func runTransactionControl(_ sql: String) throws(SQLiteError) {
        try cachedStatement(sql).run()
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// ```swift
    /// try connection.transaction(.immediate) {
    ///     try connection.execute("UPDATE account SET balance = balance - 10 WHERE id = 1")
    ///     try connection.execute("UPDATE account SET balance = balance + 10 WHERE id = 2")
    /// }
    /// ```
    public func transaction<T>(_ kind: TransactionKind = .deferred, _ body: () throws -> T) throws -> T {
        try beginTransaction(kind)
        let result: T
        do {
            result = try body()
        } catch {
            try? rollback()
            throw error
        }
        do {
            try commit()
        } catch {
            try? rollback()
            throw error
        }
        return result
    }

    /// Runs `body` inside a savepoint: released when it returns, rolled back to (and released) when it throws.
    /// Savepoints nest, inside or outside a transaction.
    public func savepoint<T>(_ name: String = "boutique_savepoint", _ body: () throws -> T) throws -> T {
        let quoted = SQLIdentifier.quote(name)
        try execute("SAVEPOINT \(quoted)")
        let result: T
        do {
            result = try body()
        } catch {
            try? execute("ROLLBACK TO SAVEPOINT \(quoted)")
            try? execute("RELEASE SAVEPOINT \(quoted)")
            throw error
        }
        try execute("RELEASE SAVEPOINT \(quoted)")
        return result
    }
}
