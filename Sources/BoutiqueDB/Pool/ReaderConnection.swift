import BoutiqueSQLite

/// One reader connection of the pool, used by one read at a time, on a dispatch queue of its own.
///
/// ```swift
/// let reader = ReaderConnection(location: location, options: options)
/// let count = try await reader.read({ conn in try conn.fetchValue("SELECT count(*) FROM note") }, thenReturnTo: pool)
/// ```
///
/// The connection opens on first use, so a pool of four costs nothing until reads need four at once.
actor ReaderConnection {
    private nonisolated let executor = QueueExecutor(label: "BoutiqueDB.reader")

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// The reader's queue as a task executor: a task that prefers it reaches ``read(_:thenReturnTo:)``
    /// without another thread waking up.
    nonisolated var taskExecutor: QueueTaskExecutor { executor.taskExecutor }

    private let location: DatabaseLocation
    private let options: DatabaseOptions
    private var connection: Connection?
    private var isClosed = false

    init(location: DatabaseLocation, options: DatabaseOptions) {
        self.location = location
        self.options = options
    }

    /// Runs `body` in one read transaction: it sees the database as it was when the read began, also if
    /// a write commits meanwhile.
    ///
    /// `BEGIN DEFERRED` alone takes no snapshot; the first read does. Reading the schema version right
    /// away pins the snapshot at the start of `read`, so everything committed before the call is seen
    /// and nothing committed after it.
    ///
    /// The reader goes back to `pool` here, on its own queue, as soon as the read ends: not once the
    /// caller resumes, which may be a busy main actor that other reads would then wait for.
    func read<T: Sendable>(
        _ body: @Sendable (DatabaseConnection) throws -> T, thenReturnTo pool: ReaderPool
    ) async throws -> T {
        defer { pool.release(self) }
        let interrupter = try openConnection().interrupter
        // The operation must capture `self`: only then is it isolated to this actor and runs on the
        // reader's queue (an operation that captures nothing isolated runs on the global executor).
        return try await withTaskCancellationHandler {
            try self.readTransaction(body)
        } onCancel: {
            interrupter.interrupt()
        }
    }

    private func readTransaction<T: Sendable>(_ body: @Sendable (DatabaseConnection) throws -> T) throws -> T {
        let connection = try openConnection()
        if Task.isCancelled { throw BoutiqueError.cancelled }
        do {
            try connection.beginTransaction(.deferred)
            _ = try connection.fetchValue("PRAGMA schema_version")
        } catch {
            if !connection.isAutocommit { try? connection.rollback() }
            throw BoutiqueError.surfacing(error, writing: false)
        }
        do {
            let result = try body(DatabaseConnection(connection, isReadOnly: true))
            // A read transaction changes nothing; ending it with COMMIT or ROLLBACK is the same.
            try connection.commit()
            return result
        } catch {
            if !connection.isAutocommit { try? connection.rollback() }
            throw BoutiqueError.surfacing(error, writing: false)
        }
    }

    /// Frees the connection's unused page cache.
    func releaseMemory() { connection?.releaseMemory() }

    /// Closes the connection; later reads throw ``BoutiqueError/databaseClosed``.
    func close() {
        isClosed = true
        connection?.close()
        connection = nil
    }

    private func openConnection() throws(BoutiqueError) -> Connection {
        guard !isClosed else { throw .databaseClosed }
        if let connection { return connection }
        let opened = try ConnectionFactory.openReader(at: location, options: options)
        connection = opened
        return opened
    }
}
