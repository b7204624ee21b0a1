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
/// server restarted) is replaced at the next transaction's first round trip, so a restart fails only
/// the transactions it interrupted.
actor PostgreSQLWorker {
    private nonisolated let executor = QueueExecutor(label: "BoutiqueSyncServer.postgresql")

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private let url: String
    private var connection: PostgreSQLConnection?
    private var isClosed = false
    /// Whether the transaction running sent its `COMMIT`.
    private var sentCommit = false

    init(url: String) { self.url = url }

    /// Runs `body` in one READ COMMITTED transaction (REPEATABLE READ, READ ONLY for a read: one
    /// snapshot for all its statements): commits when it returns, rolls back when it throws.
    ///
    /// `BEGIN` waits to be sent with the body's first statement that needs an answer, and the
    /// body's last writes with `COMMIT` (``PostgreSQLConnection/executeLater(_:_:)``), so a short
    /// transaction costs a round trip or two. A connection that went stale while idle (the server
    /// restarted) fails at that first round trip, before anything was done: it is opened again and
    /// the body run once more.
    func transaction<T: Sendable>(readOnly: Bool = false, _ body: @Sendable (PostgreSQLConnection) throws -> T) throws -> T {
        let connection = try open()
        let roundTrips = connection.roundTrips
        let begin = readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN ISOLATION LEVEL READ COMMITTED"
        do {
            return try run(body, on: connection, begin: begin)
        } catch {
            // Not when the failed round trip carried the COMMIT: the server may have committed.
            guard connection.isBroken, connection.roundTrips == roundTrips, !sentCommit else { throw error }
            self.connection = nil
            return try run(body, on: try open(), begin: begin)
        }
    }

    private func run<T: Sendable>(
        _ body: @Sendable (PostgreSQLConnection) throws -> T, on connection: PostgreSQLConnection, begin: String
    ) throws -> T {
        sentCommit = false
        do {
            try connection.executeLater(begin)
            let result = try body(connection)
            // COMMIT in a failed transaction "succeeds" by rolling back: a statement whose error the
            // body caught must not pass for a commit.
            guard !connection.isInFailedTransaction else {
                throw BoutiqueError.syncUnavailable(reason: "a statement failed inside the PostgreSQL transaction; it was rolled back")
            }
            sentCommit = true
            try connection.execute("COMMIT")
            return result
        } catch {
            connection.discardDeferred()
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
