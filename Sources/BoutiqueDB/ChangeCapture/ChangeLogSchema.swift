import BoutiqueSQLite

/// The change log's tables, exactly as Turso creates them, and the checks a file's log must pass.
///
/// ```sql
/// CREATE TABLE turso_cdc (change_id INTEGER PRIMARY KEY AUTOINCREMENT, change_time INTEGER,
///   change_txn_id INTEGER, change_type INTEGER, table_name TEXT, id, "before" BLOB, "after" BLOB, updates BLOB)
/// CREATE TABLE turso_cdc_version (table_name TEXT PRIMARY KEY, version TEXT NOT NULL)
/// ```
///
/// The statements are Turso's text byte for byte (read from `sqlite_schema` of a file Turso wrote), so
/// a file that BoutiqueDB created looks to Turso like one it created itself, and the other way round.
enum ChangeLogSchema {
    static let logTable = "turso_cdc"
    static let versionTable = "turso_cdc_version"
    static let version = "v2"

    static let createLog = """
        CREATE TABLE turso_cdc (change_id INTEGER PRIMARY KEY AUTOINCREMENT, change_time INTEGER, \
        change_txn_id INTEGER, change_type INTEGER, table_name TEXT, id, "before" BLOB, "after" BLOB, updates BLOB)
        """
    static let createVersion = "CREATE TABLE turso_cdc_version (table_name TEXT PRIMARY KEY, version TEXT NOT NULL)"

    /// Tables that are never logged: the log itself, and the bookkeeping SQLite and Turso keep beside it.
    ///
    /// `sqlite_sequence` holds the log's AUTOINCREMENT counter; Turso keeps its own counters in tables
    /// named `__turso_internal_…`. Logging any of them would log the log. Tables named `boutique_sync_…`
    /// are the sync engine's bookkeeping, written beside each change it records or applies: logging
    /// them would log every change twice and make sync push its own bookkeeping.
    static func isUnlogged(_ table: String) -> Bool {
        table == logTable || table == versionTable || table == "sqlite_sequence"
            || table.hasPrefix("__turso_internal") || table.hasPrefix("sqlite_stat") || table.hasPrefix("boutique_sync_")
    }

    /// Whether the `sqlite_schema` row named `name` is left out of the log.
    ///
    /// Turso logs a `CREATE TABLE` as one `sqlite_schema` row and leaves out the automatic index of a
    /// UNIQUE or PRIMARY KEY constraint (its row has no SQL: nothing to replay); so does BoutiqueDB.
    static func isUnloggedSchemaObject(named name: String) -> Bool {
        isUnlogged(name) || name.hasPrefix("sqlite_autoindex_")
    }

    /// Creates the tables when the file lacks them and checks the version row, in one write transaction.
    ///
    /// - Throws: ``BoutiqueError/invalidArgument(_:)`` when the file holds a change log of another
    ///   version, which this library would misread.
    static func prepare(_ connection: Connection) throws {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            if try !exists(logTable, connection) { try connection.execute(createLog) }
            if try !exists(versionTable, connection) { try connection.execute(createVersion) }
            let found = try connection.fetchValue(
                "SELECT version FROM turso_cdc_version WHERE table_name = ?", [.text(logTable)])
            switch found {
            case nil:
                try connection.execute(
                    "INSERT INTO turso_cdc_version(table_name, version) VALUES (?, ?)", [.text(logTable), .text(version)])
            case .text(version)?:
                break
            case let other?:
                throw BoutiqueError.invalidArgument(
                    "the file's change log is version \(other); BoutiqueDB reads and writes version \(version)")
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.rollback()
            throw error
        }
    }

    /// Whether the change log table exists (a reader's check: it creates nothing).
    static func logExists(_ connection: Connection) throws(SQLiteError) -> Bool {
        try exists(logTable, connection)
    }

    private static func exists(_ table: String, _ connection: Connection) throws(SQLiteError) -> Bool {
        try connection.fetchValue(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", [.text(table)]) != nil
    }
}
