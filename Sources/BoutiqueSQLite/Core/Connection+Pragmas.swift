import CSQLite

/// SQLite journal modes (`PRAGMA journal_mode`).
public enum JournalMode: String, Sendable, CaseIterable {
    /// A rollback journal deleted at the end of each transaction (SQLite's default for files).
    case delete
    /// A rollback journal truncated to zero bytes at the end of each transaction.
    case truncate
    /// A rollback journal whose header is zeroed at the end of each transaction.
    case persist
    /// A rollback journal kept in memory: a crash mid-transaction can corrupt the file.
    case memory
    /// Write-ahead logging: readers and one writer run at the same time. What BoutiqueDB uses.
    case wal
    /// No journal: no rollback and no atomic commit.
    case off
}

/// Durability levels (`PRAGMA synchronous`).
public enum SynchronousMode: Int64, Sendable, CaseIterable {
    /// No syncs: fastest, and a power cut can corrupt the file.
    case off = 0
    /// In WAL mode, syncs at checkpoints only: a power cut may lose the last commits, never the file.
    case normal = 1
    /// Syncs at every commit: a commit is on disk when it returns.
    case full = 2
    /// Like ``full``, and the directory is synced too after a journal is deleted.
    case extra = 3
}

extension Connection {
    /// The current journal mode.
    public func journalMode() throws(SQLiteError) -> JournalMode {
        let value = try fetchValue("PRAGMA journal_mode")
        guard case .text(let text)? = value, let mode = JournalMode(rawValue: text.lowercased()) else {
            throw SQLiteError(.error, message: "unexpected journal mode \(value.map(String.init(describing:)) ?? "none")")
        }
        return mode
    }

    /// Asks for a journal mode and returns the one in force (an in-memory database stays `memory`).
    @discardableResult
    public func setJournalMode(_ mode: JournalMode) throws(SQLiteError) -> JournalMode {
        _ = try fetchRows("PRAGMA journal_mode = \(mode.rawValue)")
        return try journalMode()
    }

    /// The current synchronous level.
    public func synchronous() throws(SQLiteError) -> SynchronousMode {
        guard case .integer(let level)? = try fetchValue("PRAGMA synchronous"),
            let mode = SynchronousMode(rawValue: level)
        else { throw SQLiteError(.error, message: "unexpected synchronous level") }
        return mode
    }

    /// Sets the synchronous level.
    public func setSynchronous(_ mode: SynchronousMode) throws(SQLiteError) {
        try execute("PRAGMA synchronous = \(mode.rawValue)")
    }

    /// Whether foreign-key constraints are enforced (`PRAGMA foreign_keys`).
    public func foreignKeysEnabled() throws(SQLiteError) -> Bool {
        try fetchValue("PRAGMA foreign_keys") == .integer(1)
    }

    /// Turns foreign-key enforcement on or off (no effect inside a transaction, as SQLite documents).
    public func setForeignKeysEnabled(_ enabled: Bool) throws(SQLiteError) {
        try execute("PRAGMA foreign_keys = \(enabled ? "ON" : "OFF")")
    }

    /// Whether triggers fire on this connection (`SQLITE_DBCONFIG_ENABLE_TRIGGER`).
    public func triggersEnabled() throws(SQLiteError) -> Bool {
        try triggerConfig(-1)
    }

    /// Turns the firing of triggers on or off for this connection; they stay in the schema. For applying
    /// changes whose triggers' effects arrive as changes of their own (a replayed change log).
    public func setTriggersEnabled(_ enabled: Bool) throws(SQLiteError) {
        _ = try triggerConfig(enabled ? 1 : 0)
    }

    private func triggerConfig(_ value: Int32) throws(SQLiteError) -> Bool {
        let db = try requireHandle()
        var current: Int32 = 0
        let rc = boutique_sqlite_db_config_int(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, value, &current)
        guard rc == SQLITE_OK else { throw SQLiteError(db: db, rc: rc, sql: nil) }
        return current != 0
    }

    /// A number that changes when another connection commits a change to the file (`PRAGMA data_version`).
    public func dataVersion() throws(SQLiteError) -> Int64 {
        guard case .integer(let version)? = try fetchValue("PRAGMA data_version") else {
            throw SQLiteError(.error, message: "PRAGMA data_version returned no integer")
        }
        return version
    }

    /// A number that changes whenever the main database's content changes, by this connection's commits
    /// or another's (`SQLITE_FCNTL_DATA_VERSION`): equal values mean nothing changed in between.
    ///
    /// ```swift
    /// let seen = try connection.fileDataVersion()
    /// // … later, inside a transaction:
    /// if try connection.fileDataVersion() == seen { /* the file is as this connection left it */ }
    /// ```
    ///
    /// Read without running a statement, so it costs a function call. Another connection's commit
    /// shows once this connection starts its next read or write transaction.
    public func fileDataVersion() throws(SQLiteError) -> UInt32 {
        let db = try requireHandle()
        var version: UInt32 = 0
        let rc = sqlite3_file_control(db, "main", SQLITE_FCNTL_DATA_VERSION, &version)
        guard rc == SQLITE_OK else { throw SQLiteError(db: db, rc: rc, sql: nil) }
        return version
    }

    /// `PRAGMA user_version`.
    public func userVersion() throws(SQLiteError) -> Int64 {
        guard case .integer(let version)? = try fetchValue("PRAGMA user_version") else { return 0 }
        return version
    }

    /// Sets `PRAGMA user_version`.
    public func setUserVersion(_ version: Int64) throws(SQLiteError) {
        try execute("PRAGMA user_version = \(version)")
    }

    /// Runs `PRAGMA integrity_check` and returns its messages: `["ok"]` for a sound file.
    public func integrityCheck() throws(SQLiteError) -> [String] {
        try fetchRows("PRAGMA integrity_check").rows.map { $0.first.map(String.init(describing:)) ?? "" }
    }
}
