import CSQLite

/// One SQLite database connection.
///
/// A connection is not `Sendable`: it belongs to one isolation domain at a time (an actor, a thread).
/// Every call reports failure as a ``SQLiteError``; none traps, also after ``close()``.
///
/// ```swift
/// let connection = try Connection(path: "app.db")
/// try connection.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT)")
/// let insert = try connection.prepare("INSERT INTO note(title) VALUES (?)")
/// try insert.bind("Hello", at: 1)
/// try insert.run()
/// ```
public final class Connection {
    /// The `sqlite3*` handle, `nil` once closed. Use it only for C calls this type does not wrap.
    public private(set) var handle: OpaquePointer?

    /// The path the connection was opened with.
    public let path: String

    /// Statements prepared on this connection that are still alive, so that ``close()`` can finalize them.
    let liveStatements = StatementRegistry()
    var statementCache = StatementCache()
    var hooks = HookBoxes()
    let interruptHandle: InterruptHandle
    /// Where the Swift functions added with an argument row read their arguments (opened on first use).
    let functionArgumentRows = FunctionArgumentRows()

    /// Opens (and, with `.create`, creates) the database at `path`.
    ///
    /// The file's header is read at once, so a file that is not a database fails here with
    /// `.notADatabase` and is left untouched.
    ///
    /// - Parameters:
    ///   - path: A file path, `":memory:"`, or a `file:` URI when `flags` contains `.uri`.
    ///   - flags: How to open; ``OpenFlags/default`` is read-write, create, one thread at a time.
    public init(path: String, flags: OpenFlags = .default) throws(SQLiteError) {
        self.path = path
        // SQLite reads the path up to its first NUL: refuse it rather than open another file.
        guard !path.utf8.contains(0) else {
            throw SQLiteError(.cannotOpen, message: "the database path holds a NUL character")
        }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags.rawValue | SQLITE_OPEN_EXRESCODE, nil)
        guard rc == SQLITE_OK, let db else {
            let error = SQLiteError(db: db, rc: rc, sql: nil)
            sqlite3_close_v2(db)
            throw SQLiteError(error.extendedCode, message: "\(error.message) (\(path))")
        }
        sqlite3_extended_result_codes(db, 1)
        handle = db
        interruptHandle = InterruptHandle(db)
        // Reading the schema validates the header without writing anything.
        let check = sqlite3_exec(db, "SELECT 1 FROM sqlite_schema LIMIT 1", nil, nil, nil)
        if check != SQLITE_OK {
            let error = SQLiteError(db: db, rc: check, sql: nil)
            close()
            throw SQLiteError(error.extendedCode, message: "\(error.message) (\(path))")
        }
    }

    /// A new private in-memory database.
    public static func inMemory() throws(SQLiteError) -> Connection {
        try Connection(path: ":memory:")
    }

    deinit { close() }

    /// `true` once ``close()`` has run.
    public var isClosed: Bool { handle == nil }

    /// Finalizes every statement prepared on the connection and closes it. Closing twice is harmless.
    ///
    /// Statements that outlive the connection stay safe to use: each call on them throws.
    public func close() {
        guard let db = handle else { return }
        interruptHandle.invalidate()
        statementCache.removeAll()
        liveStatements.finalizeAll()
        hooks.uninstall(from: db)
        handle = nil
        sqlite3_close_v2(db)
        functionArgumentRows.close()
    }

    /// The open handle, or the closed-connection error.
    @inlinable
    public func requireHandle(sql: String? = nil) throws(SQLiteError) -> OpaquePointer {
        guard let handle else { throw SQLiteError(.misuse, message: "the connection is closed", sql: sql) }
        return handle
    }

    /// The rowid of the last successful `INSERT` on this connection.
    public var lastInsertRowID: Int64 {
        guard let handle else { return 0 }
        return sqlite3_last_insert_rowid(handle)
    }

    /// Rows changed by the last `INSERT`, `UPDATE` or `DELETE`.
    public var changes: Int {
        guard let handle else { return 0 }
        return Int(clamping: sqlite3_changes64(handle))  // Int is 32 bits on some watches
    }

    /// Rows changed since the connection was opened.
    public var totalChanges: Int {
        guard let handle else { return 0 }
        return Int(clamping: sqlite3_total_changes64(handle))
    }

    /// `true` once the connection has opened its `temp` database: something created or read a
    /// temporary table, view, index or trigger (`false` means there is none).
    public var hasOpenedTemporaryDatabase: Bool {
        guard let handle else { return false }
        return sqlite3_db_readonly(handle, "temp") != -1
    }

    /// `true` when a database is attached besides `main` and `temp` (`ATTACH`).
    public var hasAttachedDatabases: Bool {
        guard let handle else { return false }
        return sqlite3_db_name(handle, 2) != nil
    }

    /// Frees the memory the connection's page cache holds for pages no statement is using
    /// (`sqlite3_db_release_memory`); they are read again when needed. The statement cache stays.
    public func releaseMemory() {
        guard let handle else { return }
        sqlite3_db_release_memory(handle)
    }

    /// `true` outside an explicit transaction (autocommit mode).
    public var isAutocommit: Bool {
        guard let handle else { return true }
        return sqlite3_get_autocommit(handle) != 0
    }

    /// Waits up to this many milliseconds for a lock held by another connection before `SQLITE_BUSY`.
    ///
    /// Setting it replaces a ``setBusyHandler(_:)``.
    public func setBusyTimeout(milliseconds: Int) throws(SQLiteError) {
        let db = try requireHandle()
        hooks.busy = nil
        let rc = sqlite3_busy_timeout(db, Int32(clamping: milliseconds))
        guard rc == SQLITE_OK else { throw SQLiteError(db: db, rc: rc, sql: nil) }
    }

    /// Makes a running statement on this connection stop with `.interrupt` as soon as it can.
    /// Use ``interrupter`` to interrupt from another thread.
    public func interrupt() { interruptHandle.interrupt() }

    /// A `Sendable` handle that interrupts this connection from any thread; harmless after close.
    public var interrupter: InterruptHandle { interruptHandle }

}

/// Interrupts a connection from any thread.
///
/// The handle is guarded by a mutex shared with ``Connection/close()``, so an interrupt can never
/// reach a connection that has been closed.
public final class InterruptHandle: Sendable {
    // The pointer is only read or cleared under the mutex; sqlite3_interrupt is thread-safe.
    private let db: Lock<UnsafeSendableHandle?>

    init(_ db: OpaquePointer) { self.db = Lock(UnsafeSendableHandle(pointer: db)) }

    /// Interrupts the running statement, if any.
    public func interrupt() {
        db.withLock { handle in
            if let pointer = handle?.pointer { sqlite3_interrupt(pointer) }
        }
    }

    func invalidate() { db.withLock { $0 = nil } }
}

/// A `sqlite3*` moved across threads only to be passed to `sqlite3_interrupt`, which SQLite documents
/// as safe to call from any thread while the connection is open (``InterruptHandle`` ensures that).
struct UnsafeSendableHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

