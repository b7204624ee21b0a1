import BoutiqueSQLite
import Foundation

/// The database engine: one writer connection, a pool of readers, migrations, all off the main thread.
///
/// ``BoutiqueDB`` is the main-actor facade apps hold; `DatabaseActor` is the same database for code that
/// has no main actor (servers, command-line tools, background jobs).
///
/// ```swift
/// let database = try await DatabaseActor.open(url: URL(fileURLWithPath: "notes.db"), migrations: AppMigrations.plan)
/// try await database.write { conn in
///     try conn.execute("INSERT INTO note(id, title, body, updatedAt) VALUES ('1', 'Hi', '', 0)")
/// }
/// let count = try await database.read { conn in try conn.fetchValue("SELECT count(*) FROM note") }
/// await database.close()
/// ```
///
/// Writes run one at a time on the actor, each in a `BEGIN IMMEDIATE` transaction on the writer. Reads
/// run on reader connections, concurrently with each other and with the write (WAL), each in one
/// snapshot. The actor runs on a thread of its own and every reader on a dispatch
/// queue, so blocking SQLite calls never occupy the main thread or the cooperative thread pool.
public actor DatabaseActor {
    private nonisolated let executor: ThreadExecutor

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// The URL the database was opened with.
    public nonisolated let url: URL

    /// The options the database was opened with.
    public nonisolated let options: DatabaseOptions

    nonisolated let location: DatabaseLocation
    nonisolated let readers: ReaderPool
    /// Announces commits to live queries and change-feed readers; watches other processes' commits.
    nonisolated let changeCenter = ChangeCenter()

    /// The writer connection; `nil` before opening finished and after ``close()``.
    var writer: Connection?
    /// Everything that takes part in write transactions, each in its slot.
    var observers = TransactionObservers()
    /// The writer's `PRAGMA data_version` when other connections' commits were last looked for.
    var lastSeenDataVersion: Int64?
    /// `true` once ``close()`` has run (or opening failed): every call throws ``BoutiqueError/databaseClosed``.
    public private(set) var isClosed = false

    private init(location: DatabaseLocation, options: DatabaseOptions) {
        self.url = location.url
        self.location = location
        self.options = options
        let readers = ReaderPool(location: location, options: options)
        self.readers = readers
        // Between writes the writer's thread keeps a core only while no read could use it.
        self.executor = ThreadExecutor(name: "BoutiqueDB.writer", shouldSpin: { !readers.hasReadsInProgress })
    }

    /// Opens (creating when needed) the database at `url` and brings it up to date with `migrations`.
    ///
    /// ```swift
    /// let database = try await DatabaseActor.open(url: url, migrations: AppMigrations.plan,
    ///                                             options: .init(multiProcess: true))
    /// ```
    ///
    /// - Throws: ``BoutiqueError/duplicateMigrationID(_:)`` before anything is touched;
    ///   ``BoutiqueError/sql(code:message:)`` for a file that is not a database (`.notADatabase`) or cannot be
    ///   written (`.readOnly`), which is left untouched; ``BoutiqueError/migrationHistoryMismatch(applied:planned:)``
    ///   (file untouched); ``BoutiqueError/migrationFailed(id:message:)`` (the database keeps the
    ///   migrations before the failing one).
    public static func open(
        url: URL,
        migrations: BoutiqueMigrationPlan = BoutiqueMigrationPlan(),
        options: DatabaseOptions = .default
    ) async throws -> DatabaseActor {
        try migrations.validate()
        try options.validate()
        let location = try DatabaseLocation(url: url)
        let database = DatabaseActor(location: location, options: options)
        try await database.start(migrations)
        return database
    }

    /// Opens the writer, checks the file and the migration history, switches to WAL and migrates.
    private func start(_ plan: BoutiqueMigrationPlan) throws(BoutiqueError) {
        if location.isTemporary { TemporaryStores.retain(path: location.path) }
        do {
            let (connection, afterMigrations) = try ConnectionFactory.openWriter(at: location, options: options)
            writer = connection
            // Refusals (read-only file, foreign history) happen before the file's journal mode changes.
            try checkMigrationHistory(against: plan)
            try ConnectionFactory.configureWriter(connection, at: location, options: options)
            try installChangeCapture(on: connection)
            try runMigrations(plan)
            try runAfterMigrations(afterMigrations)
            try applyForeignKeyOption()
            lastSeenDataVersion = try? connection.dataVersion()
            try startChangeMonitor()
        } catch {
            shutDown()
            throw error
        }
    }

    /// Runs the statements the writer's preparation gave it (its temporary triggers and views), in one
    /// write transaction, now that the tables they name exist.
    private func runAfterMigrations(_ statements: [QueryFragment]) throws(BoutiqueError) {
        guard !statements.isEmpty else { return }
        do {
            try withWriteTransaction { connection in
                for statement in statements { try PreparedConnection.run(statement, on: connection) }
            }
        } catch {
            throw BoutiqueError.library(error, writing: true)
        }
    }

    /// Applies ``DatabaseOptions/foreignKeys`` to the writer (migrations run with enforcement off).
    func applyForeignKeyOption() throws(BoutiqueError) {
        let writer = try requireWriter()
        do { try writer.setForeignKeysEnabled(options.foreignKeys) } catch { throw BoutiqueError(error) }
    }

    /// The writer connection, or ``BoutiqueError/databaseClosed``.
    func requireWriter() throws(BoutiqueError) -> Connection {
        guard let writer, !isClosed else { throw .databaseClosed }
        return writer
    }

    /// Closes the database. Reads in progress finish first; every later call throws
    /// ``BoutiqueError/databaseClosed``. Closing twice is harmless.
    ///
    /// ```swift
    /// await database.close()
    /// ```
    public func close() async {
        guard !isClosed else { return }
        isClosed = true
        await readers.close()
        shutDown()
    }

    /// Closes the writer and lets go of a temporary store.
    private func shutDown() {
        isClosed = true
        changeCenter.notifier.publishClose()
        stopChangeCapture()
        writer?.close()
        writer = nil
        if location.isTemporary {
            TemporaryStores.release(path: location.path, files: location.temporaryFiles)
        }
    }

    /// Adds an observer of every later write transaction, called after the engine's own and the app's
    /// participants (see ``TransactionObservers``).
    func addTransactionObserver(_ observer: sending any WriteTransactionObserver) {
        observers.addOther(observer)
    }

    deinit {
        // A database dropped without close(): connections close themselves; a temporary store still
        // has to give back its files.
        if !isClosed, location.isTemporary {
            TemporaryStores.release(path: location.path, files: location.temporaryFiles)
        }
    }
}
