import BoutiqueSQLite
import Foundation

/// A ``SyncStore`` in a SQLite file, through BoutiqueDB: one writer, every request one transaction;
/// pulls and snapshots read on reader connections, beside the writer.
///
/// Tenants take turns: a tenant has at most one transaction in the writer's line and holds at most half
/// the readers, so another tenant's push waits for at most one of its transactions, and another
/// tenant's pull finds a reader free however many pulls the busy one sends.
///
/// ```swift
/// let store = try await SQLiteSyncStore.open(url: URL(fileURLWithPath: "/var/lib/app/sync.db"))
/// let server = SyncServer(store: store)
/// ```
///
/// Rows are keyed by (tenant, table, key) and hold their merged state as one record; the log holds
/// (tenant, sequence) → change. Table and column names are bound values in these tables, never part of
/// a statement's text.
public final class SQLiteSyncStore: SyncStore {
    /// The database the store lives in.
    public let database: DatabaseActor
    /// Each tenant's one turn at the writer, taken before the writer's line.
    private let writeTurns = TenantTurns()
    /// Each tenant's share of the readers, taken before a reader.
    private let readTurns: TenantTurns
    /// Copies the log into the file beside the writer (`WALCheckpointer`); `nil` for a store on an
    /// app's database (``on(_:)``), whose writer checkpoints as the app set it.
    private let checkpointer: WALCheckpointer?

    /// How many readers a store opened by ``open(url:)`` has: a busy tenant holds at most half of them.
    static let readerCount = 8

    /// `readsPerTenant`: how many readers one tenant may hold at once; half of them when `nil`.
    private init(database: DatabaseActor, checkpointer: WALCheckpointer? = nil, readsPerTenant: Int? = nil) {
        self.database = database
        self.checkpointer = checkpointer
        readTurns = TenantTurns(perTenant: readsPerTenant ?? database.options.readerCount / 2)
    }

    /// Opens (creating when needed) a store at `url`; `BoutiqueDB.inMemoryURL()` for tests.
    ///
    /// The server's own tables need no change log, so the file is opened with capture off. The writer
    /// does not checkpoint the log: a connection of the store's own does, beside it (`WALCheckpointer`),
    /// so that one tenant's large commit does not hold every other tenant's writes while its pages are
    /// copied into the file.
    public static func open(url: URL) async throws -> SQLiteSyncStore {
        try await open(url: url, beforeCheckpoint: nil)
    }

    /// ``open(url:)``, with `beforeCheckpoint` called on the checkpointer's thread before each checkpoint.
    ///
    /// A file that holds one tenant alone (``SQLiteTenantFilesStore``'s) gives `readerCount` readers and
    /// lets that tenant hold every one of them (`readsPerTenant`): no other tenant needs a share.
    static func open(
        url: URL, readerCount: Int = readerCount, readsPerTenant: Int? = nil, beforeCheckpoint: (@Sendable () -> Void)?
    ) async throws -> SQLiteSyncStore {
        let database = try await DatabaseActor.open(
            url: url, migrations: SQLiteSyncStoreSchema.plan,
            options: DatabaseOptions(readerCount: readerCount, changeCapture: ChangeCaptureOptions(mode: .off)))
        do {
            let isWAL = try await database.read { conn in try conn.connection.journalMode() == .wal }
            guard isWAL else { return SQLiteSyncStore(database: database, readsPerTenant: readsPerTenant) }
            let checkpointer = try WALCheckpointer(path: database.url.path, beforeCheckpoint: beforeCheckpoint)
            try await database.writeWithoutTransaction { conn in try conn.connection.execute("PRAGMA wal_autocheckpoint = 0") }
            return SQLiteSyncStore(database: database, checkpointer: checkpointer, readsPerTenant: readsPerTenant)
        } catch {
            await database.close()
            throw error
        }
    }

    /// A store on a database that is already open and migrated with ``SQLiteSyncStoreSchema/plan``'s
    /// migrations (added to the app's own plan).
    public static func on(_ database: DatabaseActor) -> SQLiteSyncStore { SQLiteSyncStore(database: database) }

    /// Runs `body` in one write transaction of the store's database.
    public func transaction<T: Sendable>(
        tenant: String, _ body: @Sendable (any SyncStoreTransaction) throws -> T
    ) async throws -> T {
        try await writeTurns.take(tenant)
        defer { writeTurns.give(tenant) }
        let result = try await database.write { conn in
            let transaction = SQLiteStoreTransaction(connection: conn.connection, tenant: tenant)
            let result = try body(transaction)
            try transaction.finish()
            return result
        }
        checkpointer?.committed()
        return result
    }

    /// Every tenant with a counter row (created by its first transaction), in byte order.
    public func tenants() async throws -> [String] {
        try await database.read { conn in
            try conn.connection.cachedRows("SELECT tenant FROM boutique_sync_server_tenant ORDER BY tenant", []).compactMap { row in
                guard case .text(let tenant) = row.first else { return nil }
                return tenant
            }
        }
    }

    /// Every tenant's log entries, summed from the tenants' counters in one statement.
    ///
    /// ```swift
    /// print("\(try await store.logEntryCount()) log entries")
    /// ```
    public func logEntryCount() async throws -> Int {
        try await database.read { conn in
            let found = try conn.connection.cachedRows(
                "SELECT coalesce(sum(max(0, next_sequence - 1 - horizon)), 0) FROM boutique_sync_server_tenant", [])
            guard case .integer(let total)? = found.first?.first else { return 0 }
            return Int(total)
        }
    }

    /// Runs `body` in a read transaction on one of the database's reader connections: under WAL it
    /// sees the commits made before it began and never waits for the writer, so a pull of one tenant
    /// does not queue behind another tenant's large push. The store has one writer, which takes
    /// sequence numbers in commit order: every read sees a prefix of each tenant's log.
    public func read<T: Sendable>(
        tenant: String, _ body: @Sendable (any SyncStoreTransaction) throws -> T
    ) async throws -> T {
        try await readTurns.take(tenant)
        defer { readTurns.give(tenant) }
        return try await database.read { conn in
            try body(SQLiteStoreTransaction(connection: conn.connection, tenant: tenant, isReadOnly: true))
        }
    }

    /// How many write turns `tenant` holds and how many of its transactions wait for one (see
    /// `TenantTurns`): a holder of a turn is in the writer's line or writing.
    func writeTurns(of tenant: String) -> (held: Int, waiting: Int) { writeTurns.count(tenant) }

    /// The identity made when the store was created.
    public func identity() async throws -> String? {
        try await database.read { conn in
            guard case .text(let identity) = try conn.connection.cachedRows("SELECT identity FROM boutique_sync_server_identity", []).first?.first
            else { return nil }
            return identity
        }
    }

    /// The history of the store's log: made when the store was created, made anew in each copy
    /// `boutique backup` writes (see ``/BoutiqueSync/SyncServerID/history``).
    public func history() async throws -> String? {
        try await database.read { conn in
            guard case .text(let history) = try conn.connection.cachedRows("SELECT history FROM boutique_sync_server_identity", []).first?.first
            else { return nil }
            return history
        }
    }

    /// Gives the store a new history (``SQLiteSyncStoreSchema/newHistory``).
    public func startNewHistory() async throws {
        try await database.write { conn in try conn.execute(SQLiteSyncStoreSchema.newHistory) }
    }

    /// Frees the page caches of the store's connections (see ``/BoutiqueDB/DatabaseActor/releaseMemory()``).
    public func releaseMemory() async { await database.releaseMemory() }

    /// Closes the store's database.
    public func close() async {
        await checkpointer?.close()
        await database.close()
    }
}

/// The store's tables, created by its own migration.
public enum SQLiteSyncStoreSchema {
    /// The migrations that create the store's tables; add them to a plan of yours to keep the store in
    /// an app's database.
    public static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("boutique_sync_server_v1") { conn in
            try conn.execute("""
                CREATE TABLE boutique_sync_server_tenant(tenant TEXT PRIMARY KEY NOT NULL, next_sequence INTEGER NOT NULL,
                    horizon INTEGER NOT NULL, clock INTEGER NOT NULL) WITHOUT ROWID;
                CREATE TABLE boutique_sync_server_row(tenant TEXT NOT NULL, tbl TEXT NOT NULL, key NOT NULL,
                    state BLOB NOT NULL, alive INTEGER NOT NULL, sequence INTEGER NOT NULL,
                    PRIMARY KEY(tenant, tbl, key)) WITHOUT ROWID;
                CREATE INDEX boutique_sync_server_row_dead ON boutique_sync_server_row(tenant, alive, sequence);
                CREATE TABLE boutique_sync_server_log(tenant TEXT NOT NULL, sequence INTEGER NOT NULL, batch INTEGER NOT NULL,
                    tbl TEXT NOT NULL, key NOT NULL, change BLOB NOT NULL, origin TEXT NOT NULL,
                    PRIMARY KEY(tenant, sequence)) WITHOUT ROWID;
                CREATE TABLE boutique_sync_server_replica(tenant TEXT NOT NULL, replica TEXT NOT NULL,
                    applied_through INTEGER NOT NULL, digest INTEGER, cursor INTEGER NOT NULL, last_seen INTEGER NOT NULL,
                    retired INTEGER NOT NULL, PRIMARY KEY(tenant, replica)) WITHOUT ROWID;
                """)
        }
        // Spaces. A row's space is indexed (a user's snapshot reads their spaces one by one, the common
        // space included). The log's is not: a pull reads a bounded range of sequence numbers and
        // keeps the entries of the user's spaces, so a server without rules pays nothing for it.
        BoutiqueMigration("boutique_sync_server_v2_spaces") { conn in
            try conn.execute("""
                ALTER TABLE boutique_sync_server_row ADD COLUMN space TEXT NOT NULL DEFAULT '';
                ALTER TABLE boutique_sync_server_row ADD COLUMN parent_tbl TEXT;
                ALTER TABLE boutique_sync_server_row ADD COLUMN parent_key;
                CREATE INDEX boutique_sync_server_row_space ON boutique_sync_server_row(tenant, space, tbl, key);
                CREATE INDEX boutique_sync_server_row_parent ON boutique_sync_server_row(tenant, parent_tbl, parent_key)
                    WHERE parent_tbl IS NOT NULL;
                ALTER TABLE boutique_sync_server_log ADD COLUMN space TEXT NOT NULL DEFAULT '';
                ALTER TABLE boutique_sync_server_log ADD COLUMN moved_from TEXT;
                CREATE TABLE boutique_sync_server_member(tenant TEXT NOT NULL, space TEXT NOT NULL, user TEXT NOT NULL,
                    role TEXT NOT NULL, since INTEGER NOT NULL, until INTEGER,
                    PRIMARY KEY(tenant, space, user, since)) WITHOUT ROWID;
                CREATE INDEX boutique_sync_server_member_user ON boutique_sync_server_member(tenant, user, since);
                CREATE TABLE boutique_sync_server_shape(tbl TEXT PRIMARY KEY NOT NULL, shape TEXT NOT NULL) WITHOUT ROWID;
                """)
        }
        // Refused transactions, until their device acknowledges past them (see `RefusedTransaction`).
        BoutiqueMigration("boutique_sync_server_v3_refusals") { conn in
            try conn.execute("""
                CREATE TABLE boutique_sync_server_refusal(tenant TEXT NOT NULL, replica TEXT NOT NULL, txn INTEGER NOT NULL,
                    tbl TEXT NOT NULL, key NOT NULL, reason TEXT NOT NULL, PRIMARY KEY(tenant, replica, txn)) WITHOUT ROWID;
                """)
        }
        // The SHA-256 of the secret a replica id is bound to (see `ReplicaSecret`); NULL for replicas
        // recorded before, bound at their next push.
        BoutiqueMigration("boutique_sync_server_v4_replica_secrets") { conn in
            try conn.execute("ALTER TABLE boutique_sync_server_replica ADD COLUMN secret_hash BLOB")
        }
        // The store's identity (`SyncServerID`), made once: a copy of the file (a restored backup) is
        // the same server, another file is another.
        BoutiqueMigration("boutique_sync_server_v5_identity") { conn in
            try conn.execute("""
                CREATE TABLE boutique_sync_server_identity(singleton INTEGER PRIMARY KEY CHECK (singleton = 1), identity TEXT NOT NULL);
                INSERT INTO boutique_sync_server_identity VALUES (1, lower(hex(randomblob(16))));
                """)
        }
        // Table shapes per tenant: what one tenant's devices describe places only that tenant's rows.
        // The shapes every tenant shared until now become each tenant's own.
        BoutiqueMigration("boutique_sync_server_v6_tenant_shapes") { conn in
            try conn.execute("""
                CREATE TABLE boutique_sync_server_tenant_shape(tenant TEXT NOT NULL, tbl TEXT NOT NULL, shape TEXT NOT NULL,
                    PRIMARY KEY(tenant, tbl)) WITHOUT ROWID;
                INSERT INTO boutique_sync_server_tenant_shape(tenant, tbl, shape)
                    SELECT tenant.tenant, shape.tbl, shape.shape FROM boutique_sync_server_tenant AS tenant, boutique_sync_server_shape AS shape;
                DROP TABLE boutique_sync_server_shape;
                """)
        }
        // Transactions devices send in parts, until the last part comes (see `StagedTransaction`): the
        // unique index is what refuses a transaction that changes one row in two parts.
        BoutiqueMigration("boutique_sync_server_v7_staged_transactions") { conn in
            try conn.execute("""
                CREATE TABLE boutique_sync_server_staged(tenant TEXT NOT NULL, replica TEXT NOT NULL, txn INTEGER NOT NULL,
                    stamp_time INTEGER NOT NULL, stamp_writer TEXT NOT NULL, received_through INTEGER NOT NULL,
                    change_count INTEGER NOT NULL, digest INTEGER NOT NULL, updated INTEGER NOT NULL,
                    PRIMARY KEY(tenant, replica)) WITHOUT ROWID;
                CREATE TABLE boutique_sync_server_staged_change(tenant TEXT NOT NULL, replica TEXT NOT NULL, position INTEGER NOT NULL,
                    tbl TEXT NOT NULL, key NOT NULL, change BLOB NOT NULL, PRIMARY KEY(tenant, replica, position)) WITHOUT ROWID;
                CREATE UNIQUE INDEX boutique_sync_server_staged_row ON boutique_sync_server_staged_change(tenant, replica, tbl, key);
                """)
        }
        // The users a device or tool reached the server as (see `SyncMember.hasConnected`). The owners
        // of spaces created their root rows, so they had.
        BoutiqueMigration("boutique_sync_server_v8_connected_users") { conn in
            try conn.execute("""
                CREATE TABLE boutique_sync_server_user(tenant TEXT NOT NULL, user TEXT NOT NULL, PRIMARY KEY(tenant, user)) WITHOUT ROWID;
                INSERT OR IGNORE INTO boutique_sync_server_user(tenant, user)
                    SELECT tenant, user FROM boutique_sync_server_member WHERE role = 'owner';
                """)
        }
        SQLiteSyncStoreSchema.historyMigration
        // Who may read an attachment (see `SyncAttachmentRightsStoreTransaction`): the rows that point
        // at it, found by id (the key's order), the users who uploaded it, and when the last row
        // pointing at it stopped (for garbage collection).
        BoutiqueMigration("boutique_sync_server_v10_attachment_rights") { conn in
            try conn.execute("""
                CREATE TABLE boutique_sync_server_attachment_pointer(tenant TEXT NOT NULL, attachment TEXT NOT NULL,
                    tbl TEXT NOT NULL, key NOT NULL, PRIMARY KEY(tenant, attachment, tbl, key)) WITHOUT ROWID;
                CREATE TABLE boutique_sync_server_attachment_uploader(tenant TEXT NOT NULL, attachment TEXT NOT NULL,
                    user TEXT NOT NULL, PRIMARY KEY(tenant, attachment, user)) WITHOUT ROWID;
                CREATE TABLE boutique_sync_server_attachment_release(tenant TEXT NOT NULL, attachment TEXT NOT NULL,
                    released_at INTEGER NOT NULL, PRIMARY KEY(tenant, attachment)) WITHOUT ROWID;
                """)
        }
        // A number each change of a tenant's shapes moves on (see `SyncSpaceStoreTransaction.tableShapesVersion()`):
        // a server that kept them in memory reads them again when another process changed them.
        BoutiqueMigration("boutique_sync_server_v12_shapes_version") { conn in
            try conn.execute("ALTER TABLE boutique_sync_server_tenant ADD COLUMN shapes_version INTEGER NOT NULL DEFAULT 0")
        }
        // Who wrote each pointer, and whether it was vouched for (see
        // `SyncAttachmentRightsStoreTransaction`): only those let a row's readers read. Pointers from
        // before were all taken as they came, and stay so.
        BoutiqueMigration("boutique_sync_server_v13_vouched_pointers") { conn in
            try conn.execute("""
                ALTER TABLE boutique_sync_server_attachment_pointer ADD COLUMN writer TEXT;
                ALTER TABLE boutique_sync_server_attachment_pointer ADD COLUMN vouched INTEGER NOT NULL DEFAULT 1;
                """)
        }
    }

    /// The history of the store's log (``/BoutiqueSync/SyncServerID/history``), made once and made
    /// anew in every copy `boutique backup` writes (``newHistory``): a copy served again logs other
    /// changes at the positions past the copy than the original did.
    static let historyMigration = BoutiqueMigration("boutique_sync_server_v9_history") { conn in
        try conn.execute("""
            ALTER TABLE boutique_sync_server_identity ADD COLUMN history TEXT;
            \(SQLiteSyncStoreSchema.newHistory);
            """)
    }

    /// The statement that gives the store a new history: run on a copy of the store (a backup), which
    /// devices must not take for the original's log past the point it was copied at.
    ///
    /// ```swift
    /// try copy.execute(SQLiteSyncStoreSchema.newHistory)
    /// ```
    public static let newHistory = "UPDATE boutique_sync_server_identity SET history = lower(hex(randomblob(16)))"
}
