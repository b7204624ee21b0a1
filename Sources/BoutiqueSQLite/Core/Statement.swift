import CSQLite

/// A prepared statement.
///
/// Parameters are bound by 1-based index (`?`, `?NNN`) or by name (`:name`, `@name`, `$name`);
/// result columns are read by 0-based index, as in the C API. Reading a column never traps:
/// an index out of range, or a statement that has been finalized, reads as NULL.
///
/// ```swift
/// let statement = try connection.prepare("SELECT id, title FROM note WHERE id > ?")
/// try statement.bind(10, at: 1)
/// while try statement.step() {
///     print(statement.int64(at: 0), try statement.string(at: 1))
/// }
/// ```
public final class Statement {
    /// The `sqlite3_stmt*`, `nil` once finalized (directly or by closing the connection).
    ///
    /// Read on every bind, step and column access. A statement belongs to one isolation domain at a
    /// time and the handle is only replaced by `finalize()`, so the runtime's dynamic exclusivity check
    /// (a measurable cost per call) is turned off for it.
    @exclusivity(unchecked)
    public internal(set) var handle: OpaquePointer?

    /// The SQL text the statement was prepared from.
    public let sql: String

    /// The connection's list of live statements, which this statement leaves when finalized; it also
    /// holds the observer of statement ends.
    @usableFromInline let registry: StatementRegistry

    init(handle: OpaquePointer, sql: String, registry: StatementRegistry) {
        self.handle = handle
        self.sql = sql
        self.registry = registry
        registry.insert(self)
    }

    deinit {
        if let handle {
            if registry.endObserver != nil, sqlite3_stmt_busy(handle) != 0 { registry.reportEnd(of: handle, rc: SQLITE_DONE) }
            sqlite3_finalize(handle)
            registry.remove(self)
        }
    }

    /// Releases the statement. Later calls throw; finalizing twice is harmless.
    public func finalize() {
        guard let handle else { return }
        if registry.endObserver != nil, sqlite3_stmt_busy(handle) != 0 { registry.reportEnd(of: handle, rc: SQLITE_DONE) }
        self.handle = nil
        sqlite3_finalize(handle)
        registry.remove(self)
    }

    /// The error for the failing result code `rc`, with the connection's message and this statement's SQL.
    @usableFromInline
    func error(_ rc: Int32) -> SQLiteError {
        guard let handle else { return SQLiteError.closed("statement", sql: sql) }
        return SQLiteError(db: sqlite3_db_handle(handle), rc: rc, sql: sql)
    }

    /// Advances to the next row: `true` when a row is ready to read, `false` when the statement is done.
    @inlinable
    @discardableResult
    public func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE {
            if registry.endObserver != nil { registry.reportEnd(of: handle, rc: rc) }
            return false
        }
        // The error is read before the observer can run statements of its own.
        let failure = error(rc)
        if registry.endObserver != nil { registry.reportEnd(of: handle, rc: rc) }
        throw failure
    }

    /// Runs the statement to completion, discarding any rows, then resets it for the next run.
    @inlinable
    public func run() throws(SQLiteError) {
        var rc = sqlite3_step(handle)
        while rc == SQLITE_ROW { rc = sqlite3_step(handle) }
        if rc != SQLITE_DONE {
            let failure = error(rc)
            if registry.endObserver != nil { registry.reportEnd(of: handle, rc: rc) }
            sqlite3_reset(handle)
            throw failure
        }
        if registry.endObserver != nil { registry.reportEnd(of: handle, rc: rc) }
        sqlite3_reset(handle)
    }

    /// Rewinds the statement so that it can run again; bindings are kept.
    @inlinable
    public func reset() throws(SQLiteError) {
        guard let handle else { throw error(SQLITE_MISUSE) }
        // A statement reset before its end (rows of a RETURNING left unread) ends there, keeping its changes.
        if registry.endObserver != nil, sqlite3_stmt_busy(handle) != 0 { registry.reportEnd(of: handle, rc: SQLITE_DONE) }
        // sqlite3_reset repeats the error of the last step; the statement is reset all the same.
        _ = sqlite3_reset(handle)
    }

    /// Sets every parameter back to NULL.
    public func clearBindings() throws(SQLiteError) {
        guard let handle else { throw error(SQLITE_MISUSE) }
        sqlite3_clear_bindings(handle)
    }

    /// `true` when the statement does not write to the database (`sqlite3_stmt_readonly`).
    public var isReadOnly: Bool {
        guard let handle else { return true }
        return sqlite3_stmt_readonly(handle) != 0
    }

    /// The SQL with the current bound values expanded, for logging (`sqlite3_expanded_sql`).
    public var expandedSQL: String? {
        guard let handle, let text = sqlite3_expanded_sql(handle) else { return nil }
        defer { sqlite3_free(text) }
        return String(cString: text)
    }

    /// Number of parameters (the largest parameter index).
    public var parameterCount: Int32 {
        guard let handle else { return 0 }
        return sqlite3_bind_parameter_count(handle)
    }

    /// The index of the named parameter (`":name"`, `"@name"`, `"$name"`); `name` may omit the `:` prefix.
    public func parameterIndex(named name: String) throws(SQLiteError) -> Int32 {
        guard let handle else { throw error(SQLITE_MISUSE) }
        // C reads the name up to its first NUL, which could match another parameter.
        guard !name.utf8.contains(0) else {
            throw SQLiteError(.range, message: "the statement has no parameter named \(name)", sql: sql)
        }
        var index = sqlite3_bind_parameter_index(handle, name)
        if index == 0, let first = name.first, first != ":" && first != "@" && first != "$" {
            index = sqlite3_bind_parameter_index(handle, ":" + name)
        }
        guard index > 0 else {
            throw SQLiteError(.range, message: "the statement has no parameter named \(name)", sql: sql)
        }
        return index
    }
}
