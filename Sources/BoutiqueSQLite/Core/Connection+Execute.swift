import CSQLite

extension Connection {
    /// Compiles one SQL statement.
    ///
    /// - Throws: the SQLite error with its message and `sql`; `.misuse` when `sql` holds no statement
    ///   or more than one.
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try prepare(sql, flags: 0)
    }

    /// A prepared statement for `sql` from the connection's cache, reset and with its bindings cleared.
    ///
    /// Use it for SQL that runs again and again; do not keep the statement past the next call that
    /// uses the same SQL.
    public func cachedStatement(_ sql: String) throws(SQLiteError) -> Statement {
        if let statement = statementCache[sql], let handle = statement.handle {
            if liveStatements.endObserver != nil, sqlite3_stmt_busy(handle) != 0 {
                liveStatements.reportEnd(of: handle, rc: SQLITE_DONE)
            }
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
            return statement
        }
        let statement = try prepare(sql, flags: UInt32(SQLITE_PREPARE_PERSISTENT))
        statementCache[sql] = statement
        return statement
    }

    /// Number of statements in the cache.
    public var cachedStatementCount: Int { statementCache.count }

    /// Finalizes the cached statements (for instance before `VACUUM` or closing).
    public func clearStatementCache() { statementCache.removeAll() }

    private func prepare(_ sql: String, flags: UInt32) throws(SQLiteError) -> Statement {
        let db = try requireHandle(sql: sql)
        try Connection.checkText(of: sql)
        var statementHandle: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        var utf8 = sql
        let rc = utf8.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                let rc = sqlite3_prepare_v3(
                    db, chars.baseAddress, Int32(truncatingIfNeeded: chars.count), flags, &statementHandle, &tail)
                // Only whitespace and comments may follow the one statement.
                if rc == SQLITE_OK, let tail, let start = chars.baseAddress {
                    let consumed = tail - start
                    if consumed < chars.count, Connection.holdsStatement(db, UnsafeBufferPointer(rebasing: chars[consumed...])) {
                        return SQLITE_MISUSE
                    }
                }
                return rc
            }
        }
        if rc == SQLITE_MISUSE, let statementHandle {
            sqlite3_finalize(statementHandle)
            throw SQLiteError(.misuse, message: "prepare takes one statement; use execute for several", sql: sql)
        }
        guard rc == SQLITE_OK else { throw SQLiteError(db: db, rc: rc, sql: sql) }
        guard let statementHandle else {
            throw SQLiteError(.misuse, message: "the SQL holds no statement", sql: sql)
        }
        return Statement(handle: statementHandle, sql: sql, registry: liveStatements)
    }

    /// Refuses SQL that SQLite would read only in part: text past a NUL character is ignored by the
    /// parser, and the length is passed as a 32-bit count.
    private static func checkText(of sql: String) throws(SQLiteError) {
        guard sql.utf8.count <= Int(Int32.max) else {
            throw SQLiteError(.tooBig, message: "the SQL text is longer than SQLite accepts", sql: nil)
        }
        guard !sql.utf8.contains(0) else {
            throw SQLiteError(.misuse, message: "the SQL text holds a NUL character", sql: sql)
        }
    }

    /// `true` when `text` compiles to at least one statement (not only whitespace or comments).
    private static func holdsStatement(_ db: OpaquePointer, _ text: UnsafeBufferPointer<CChar>) -> Bool {
        var handle: OpaquePointer?
        let rc = sqlite3_prepare_v3(db, text.baseAddress, Int32(truncatingIfNeeded: text.count), 0, &handle, nil)
        sqlite3_finalize(handle)
        return rc != SQLITE_OK || handle != nil
    }

    /// Runs one or more SQL statements separated by semicolons, discarding any rows.
    ///
    /// Each statement runs to completion before the next is compiled, so a statement may use a table
    /// the one before it created. On failure the statements before the failing one have run.
    public func execute(_ sql: String) throws(SQLiteError) {
        let db = try requireHandle(sql: sql)
        try Connection.checkText(of: sql)
        var utf8 = sql
        let failure: SQLiteError? = utf8.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars -> SQLiteError? in
                guard var cursor = chars.baseAddress else { return nil }
                let end = cursor + chars.count
                while cursor < end {
                    var statement: OpaquePointer?
                    var tail: UnsafePointer<CChar>?
                    let rc = sqlite3_prepare_v3(db, cursor, Int32(truncatingIfNeeded: end - cursor), 0, &statement, &tail)
                    guard rc == SQLITE_OK else { return SQLiteError(db: db, rc: rc, sql: sql) }
                    guard let statement else { break }  // only whitespace or comments were left
                    var step = sqlite3_step(statement)
                    while step == SQLITE_ROW { step = sqlite3_step(statement) }
                    let failed = step != SQLITE_DONE ? SQLiteError(db: db, rc: step, sql: Connection.text(of: statement) ?? sql) : nil
                    if liveStatements.endObserver != nil { liveStatements.reportEnd(of: statement, rc: step) }
                    sqlite3_finalize(statement)
                    if let failed { return failed }
                    guard let tail, tail > cursor else { break }
                    cursor = tail
                }
                return nil
            }
        }
        if let failure { throw failure }
    }

    /// Runs one statement with values bound to its parameters (1, 2, …), discarding any rows.
    public func execute(_ sql: String, _ arguments: [DatabaseValue]) throws(SQLiteError) {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        try statement.run()
    }

    /// Runs one statement from the statement cache with values bound to its parameters (1, 2, …) and
    /// returns every row: for SQL that runs again and again.
    public func cachedRows(_ sql: String, _ arguments: [DatabaseValue] = []) throws(SQLiteError) -> [[DatabaseValue]] {
        let statement = try cachedStatement(sql)
        defer { try? statement.reset() }
        try statement.bind(arguments)
        var rows: [[DatabaseValue]] = []
        while try statement.step() { rows.append(try statement.row()) }
        return rows
    }

    /// Runs one statement and returns its column names and every row.
    public func fetchRows(
        _ sql: String, _ arguments: [DatabaseValue] = []
    ) throws(SQLiteError) -> (columns: [String], rows: [[DatabaseValue]]) {
        let statement = try prepare(sql)
        defer { statement.finalize() }
        try statement.bind(arguments)
        var rows: [[DatabaseValue]] = []
        while try statement.step() { rows.append(try statement.row()) }
        return (statement.columnNames, rows)
    }

    /// The first column of the first row, or `nil` when there is no row.
    public func fetchValue(_ sql: String, _ arguments: [DatabaseValue] = []) throws(SQLiteError) -> DatabaseValue? {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { try? statement.reset() }
        guard try statement.step() else { return nil }
        return try statement.value(at: 0)
    }

    private static func text(of statement: OpaquePointer) -> String? {
        sqlite3_sql(statement).map { String(cString: $0) }
    }
}
