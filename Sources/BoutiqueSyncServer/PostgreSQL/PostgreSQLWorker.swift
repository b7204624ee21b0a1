/// One connection of a store's pool, with a dispatch queue of its own on which every libpq call it
/// makes runs, used by one transaction at a time.
///
/// ```swift
/// let worker = PostgreSQLWorker(url: url)
/// let count = try await worker.transaction { connection in
///     try connection.execute("SELECT count(*)::int8 FROM boutique_sync_server_log").int64(0, 0)
/// }
/// ```
///
/// libpq blocks its thread for as long as the network and the server take (and a transaction waits
/// there for the tenant's lock): on the cooperative pool that would stall every task of the process.
/// The connection opens on first use and again after it broke; one that broke while idle (the
/// server restarted) is replaced at the next `BEGIN`, so a restart fails only the transactions it
/// interrupted.
actor PostgreSQLWorker {
    private nonisolated let executor = QueueExecutor(label: "BoutiqueSyncServer.postgresql")

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private let url: String
    private var connection: PostgreSQLConnection?
    private var isClosed = false

    init(url: String) { self.url = url }

    /// Runs `body` in one READ COMMITTED transaction (REPEATABLE READ, READ ONLY for a read: one
    /// snapshot for all its statements): commits when it returns, rolls back when it throws.
    ///
    /// A connection that went stale while idle (the server restarted) fails at `BEGIN`, before
    /// anything was done: it is opened again and `BEGIN` tried once more.
    func transaction<T: Sendable>(readOnly: Bool = false, _ body: @Sendable (PostgreSQLConnection) throws -> T) throws -> T {
        var connection = try open()
        let begin = readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN ISOLATION LEVEL READ COMMITTED"
        do {
            try connection.execute(begin)
        } catch {
            guard connection.isBroken else { throw error }
            self.connection = nil
            connection = try open()
            try connection.execute(begin)
        }
        do {
            let result = try body(connection)
            // COMMIT in a failed transaction "succeeds" by rolling back: a statement whose error the
            // body caught must not pass for a commit.
            guard !connection.isInFailedTransaction else {
                throw BoutiqueError.syncUnavailable(reason: "a statement failed inside the PostgreSQL transaction; it was rolled back")
            }
            try connection.execute("COMMIT")
            return result
        } catch {
            if !connection.isBroken, connection.isInTransaction { _ = try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    /// Closes the connection; the worker refuses work from now on.
    func close() {
        isClosed = true
        connection = nil
    }

    private func open() throws(BoutiqueError) -> PostgreSQLConnection {
        guard !isClosed else { throw .databaseClosed }
        if let connection, !connection.isBroken { return connection }
        connection = nil
        let opened = try PostgreSQLConnection(url: url)
        connection = opened
        return opened
    }
}
