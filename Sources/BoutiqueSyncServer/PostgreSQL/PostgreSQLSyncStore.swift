/// A ``SyncStore`` in a PostgreSQL database, through libpq: for several stateless server instances
/// behind a load balancer, all on one database.
///
/// ```swift
/// let store = try await PostgreSQLSyncStore.open(url: "postgresql://sync@db.internal/sync", connections: 8)
/// let server = SyncServer(store: store)
/// // … serve requests …
/// await store.close()
/// ```
///
/// Each instance opens its own store on the same database. A tenant's transactions run one at a time
/// across all of them: each takes a transaction-scoped advisory lock on the tenant first, and sequence
/// numbers come from the tenant's counter row under that lock. So sequence order is commit order, and
/// a pull, which moves its cursor to the last change it read, never skips a change that committed
/// late (with a bare PostgreSQL `SEQUENCE`, 7 could commit before 6, and a pull that read 7 would never
/// go back for 6). Pulls and snapshots read without the lock, each on one snapshot of the database
/// (``read(tenant:_:)``), which holds a prefix of the log. Within a process, a tenant's transactions
/// wait for their turn before they take a connection, so one tenant's queue never holds the pool. A
/// commit is announced with `NOTIFY`, which wakes the long polls waiting on every instance
/// (``observeCommits(_:)``).
///
/// The store creates its tables when the database has none and upgrades them when it opens
/// (``PostgreSQLStoreSchema``). Every value (tenants, table names, keys, column values) is a bound
/// parameter, never part of a statement's text. libpq blocks its thread, so every call runs on a
/// connection's own dispatch queue, never on the cooperative pool: up to `connections` transactions
/// run at once, the others wait in line for a connection.
///
/// The commit listener's `LISTEN` needs a session of its own: connect directly, or through a pooler
/// in session mode. The tenant locks are bigint advisory locks on a hash of the tenant: another
/// application that takes bigint advisory locks on the same database can, rarely, make a request
/// wait for one of its transactions, never break one.
public final class PostgreSQLSyncStore: SyncStore {
    private let pool: PostgreSQLConnectionPool
    private let listener: PostgreSQLCommitListener
    /// Each tenant's turn to write in this process, taken before a connection.
    private let turns = TenantTurns()
    /// Each tenant's share of the connections for reads (half of them), taken before a connection: a
    /// tenant's many pulls leave connections for other tenants' pushes and pulls.
    private let readTurns: TenantTurns

    private init(pool: PostgreSQLConnectionPool, listener: PostgreSQLCommitListener, connections: Int) {
        self.pool = pool
        self.listener = listener
        readTurns = TenantTurns(perTenant: connections / 2)
    }

    deinit {
        // The listener's thread keeps itself alive; a store let go without `close()` still ends it.
        // (The pool's connections close with their workers.)
        listener.requestStop()
    }

    /// Connects to the database `url` names, creating or upgrading the store's tables.
    ///
    /// ```swift
    /// let store = try await PostgreSQLSyncStore.open(url: "postgresql://sync:secret@db.internal:5432/sync")
    /// ```
    ///
    /// - Parameters:
    ///   - url: a libpq connection URI (`postgresql://user:password@host:port/database?option=value`)
    ///     or key/value string (`host=… dbname=…`). A connection attempt gives up after 10 seconds
    ///     unless it sets `connect_timeout`.
    ///   - connections: how many transactions may run at once (at least 1). Long polls hold none while
    ///     they wait; the commit listener has a connection of its own besides these.
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncUnavailable(reason:)`` with PostgreSQL's message when the database
    ///   cannot be reached; ``/BoutiqueDB/BoutiqueError/migrationHistoryMismatch(applied:planned:)`` when a newer
    ///   server has upgraded its tables past what this one knows (nothing is changed then);
    ///   ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` for fewer than one connection.
    public static func open(url: String, connections: Int = 4) async throws -> PostgreSQLSyncStore {
        guard connections >= 1 else {
            throw BoutiqueError.invalidArgument("a PostgreSQL store needs at least 1 connection, not \(connections)")
        }
        let store = PostgreSQLSyncStore(
            pool: PostgreSQLConnectionPool(url: url, size: connections), listener: PostgreSQLCommitListener(url: url),
            connections: connections)
        do {
            let worker = try await store.pool.acquire()
            defer { store.pool.release(worker) }
            try await worker.transaction { connection in try PostgreSQLStoreSchema.upgrade(connection) }
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    /// Runs `body` in one transaction over `tenant`'s data, holding the tenant's lock: commits when it
    /// returns, rolls back when it throws.
    ///
    /// ```swift
    /// let latest = try await store.transaction(tenant: "acme") { store in try store.latestSequence() }
    /// ```
    ///
    /// `body` runs on the connection's queue and may block it (it waits for PostgreSQL on each call).
    ///
    /// - Throws: what `body` throws; ``/BoutiqueDB/BoutiqueError/syncUnavailable(reason:)`` when PostgreSQL fails
    ///   (nothing was committed, unless the connection dropped during the commit itself);
    ///   ``/BoutiqueDB/BoutiqueError/databaseClosed`` after ``close()``; ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` for
    ///   a tenant that PostgreSQL text cannot hold.
    public func transaction<T: Sendable>(
        tenant: String, _ body: @Sendable (any SyncStoreTransaction) throws -> T
    ) async throws -> T {
        if let problem = Self.problem(with: tenant) { throw BoutiqueError.invalidArgument(problem) }
        listener.remember(tenant)
        // The tenant's turn first, then a connection: a tenant's waiting requests hold no connection.
        try await turns.take(tenant)
        defer { turns.give(tenant) }
        let worker = try await pool.acquire()
        defer { pool.release(worker) }
        return try await worker.transaction { connection in
            let transaction = try PostgreSQLStoreTransaction(connection: connection, tenant: tenant)
            let result = try body(transaction)
            try transaction.finish()
            return result
        }
    }

    /// Runs `body` in one transaction on a connection of the pool, outside any tenant's turn: the
    /// attachments' bytes (``PostgreSQLAttachmentStore``), which lock their own rows.
    func withConnection<T: Sendable>(_ body: @Sendable (PostgreSQLConnection) throws -> T) async throws -> T {
        let worker = try await pool.acquire()
        defer { pool.release(worker) }
        return try await worker.transaction(body)
    }

    /// The identity made when the database's tables were created, the same for every instance.
    public func identity() async throws -> String? {
        let worker = try await pool.acquire()
        defer { pool.release(worker) }
        return try await worker.transaction { connection in
            let found = try connection.execute("SELECT identity FROM boutique_sync_server_identity")
            return found.rowCount > 0 ? try found.string(0, 0) : nil
        }
    }

    /// The history of the store's log: the id made when the store was created, with where its row
    /// lives (the database's and the table's object ids, and the transaction that wrote the row).
    ///
    /// `pg_dump` copies the id, so a dump restored would otherwise answer with the original's
    /// history; restoring it creates the database or the table anew and writes the row again, which
    /// changes where the row lives. A server restarted, or upgraded with `pg_upgrade` (which keeps
    /// those ids), keeps its history.
    public func history() async throws -> String? {
        let worker = try await pool.acquire()
        defer { pool.release(worker) }
        return try await worker.transaction { connection in
            let found = try connection.execute("""
                SELECT history.history || '@' || database.oid::text || '.' || history.tableoid::text || '.' || history.xmin::text
                FROM boutique_sync_server_identity AS history, pg_database AS database
                WHERE database.datname = current_database() AND history.history IS NOT NULL
                """)
            return found.rowCount > 0 ? try found.string(0, 0) : nil
        }
    }

    /// Gives the store a new history id: for a database restored by means that keep where its row
    /// lives (a base backup, a file-system snapshot), which ``history()`` cannot tell from the original.
    public func startNewHistory() async throws {
        let worker = try await pool.acquire()
        defer { pool.release(worker) }
        try await worker.transaction { connection in
            _ = try connection.execute("UPDATE boutique_sync_server_identity SET history = gen_random_uuid()::text")
        }
    }

    /// Every tenant's log entries, summed from the tenants' counters in one statement.
    ///
    /// ```swift
    /// print("\(try await store.logEntryCount()) log entries")
    /// ```
    public func logEntryCount() async throws -> Int {
        let worker = try await pool.acquire()
        defer { pool.release(worker) }
        return try await worker.transaction { connection in
            let found = try connection.execute(
                "SELECT coalesce(sum(greatest(0, next_sequence - 1 - horizon)), 0)::bigint FROM boutique_sync_server_tenant")
            return Int(try found.int64(0, 0))
        }
    }

    /// Every tenant with a counter row (created by its first transaction) in the database, whichever
    /// instance made it, in byte order.
    public func tenants() async throws -> [String] {
        let worker = try await pool.acquire()
        defer { pool.release(worker) }
        return try await worker.transaction { connection in
            let found = try connection.execute("SELECT tenant FROM boutique_sync_server_tenant ORDER BY tenant")
            return try (0..<found.rowCount).map { row throws(BoutiqueError) in try found.string(row, 0) }
        }
    }

    /// Runs `body` in one REPEATABLE READ, READ ONLY transaction over `tenant`'s data, without the
    /// tenant's lock: pulls, snapshots and long polls read while the tenant's (and every other
    /// tenant's) writes go on, and see a prefix of the tenant's log: a sequence number is taken under the
    /// tenant's lock and committed before the lock is let go, so no later number commits first.
    ///
    /// ```swift
    /// let latest = try await store.read(tenant: "acme") { store in try store.latestSequence() }
    /// ```
    ///
    /// - Throws: as ``transaction(tenant:_:)``; a statement that would write fails.
    public func read<T: Sendable>(
        tenant: String, _ body: @Sendable (any SyncStoreTransaction) throws -> T
    ) async throws -> T {
        if let problem = Self.problem(with: tenant) { throw BoutiqueError.invalidArgument(problem) }
        listener.remember(tenant)
        try await readTurns.take(tenant)
        defer { readTurns.give(tenant) }
        let worker = try await pool.acquire()
        defer { pool.release(worker) }
        return try await worker.transaction(readOnly: true) { connection in
            try body(try PostgreSQLStoreTransaction(connection: connection, tenant: tenant, isReadOnly: true))
        }
    }

    /// Reports the tenant of every commit any server instance makes to the database, this one's
    /// included, by `LISTEN`/`NOTIFY`; returns once listening.
    ///
    /// ```swift
    /// try await store.observeCommits { tenant in print("new changes for \(tenant)") }
    /// ```
    ///
    /// ``SyncServer`` calls this before its first long poll. The store keeps one listening connection
    /// however many observers it has, and reconnects it when it drops; it then wakes every tenant a
    /// notification named or a transaction of this store was for (a long poll's tenant among them),
    /// since a commit announced meanwhile may have been missed. ``close()`` stops it.
    public func observeCommits(_ wake: @escaping @Sendable (String) -> Void) async throws {
        try await listener.observe(wake)
    }

    /// Stops the commit listener, waits for the transactions in progress, and closes every
    /// connection. Transactions started afterwards throw ``/BoutiqueDB/BoutiqueError/databaseClosed``.
    ///
    /// ```swift
    /// await store.close()
    /// ```
    public func close() async {
        await listener.stop()
        await pool.close()
    }

    /// Why PostgreSQL cannot take `tenant`, `nil` when it can: a tenant is text, and travels as the
    /// payload of a notification.
    private static func problem(with tenant: String) -> String? {
        if tenant.utf8.contains(0) { return "a tenant name cannot contain a NUL character in a PostgreSQL store" }
        // NOTIFY payloads are shorter than 8000 bytes.
        if tenant.utf8.count >= 4_000 {
            return "a tenant name of \(tenant.utf8.count) bytes is too long for a PostgreSQL store (the limit is 4000)"
        }
        return nil
    }
}
