import BoutiqueDB
import BoutiqueSQLite
import Foundation

/// A ``SyncStore`` in a directory of SQLite files, one per tenant: each tenant has a writer of its
/// own, so one tenant's large transaction never holds another tenant's push.
///
/// ```swift
/// let store = try await SQLiteTenantFilesStore.open(directory: URL(fileURLWithPath: "/var/lib/app/sync"))
/// let server = SyncServer(store: store)
/// ```
///
/// The directory holds `main.db` (the server's identity and the registry of tenants with the names of
/// their files) and `tenants/`, where each tenant's data is a ``SQLiteSyncStore`` of its own, named by
/// the SHA-256 of the tenant's name (never by its text, which may hold `/` or `..`). A transaction
/// applies whole or not at all in its tenant's file, as in the one-file store; what differs is that
/// the one writer, and the write-ahead log each commit goes through, are the tenant's.
///
/// At most `openFileLimit` tenant files are open at once, each with `readersPerFile` readers and a
/// checkpointer's connection: when another must open, the least recently used file that no request
/// holds is closed (a file in use never is). A tenant seen for the first time is registered, and its
/// file kept, when its first transaction commits; until then its reads find nothing, as in a new
/// store, and make no file.
public final class SQLiteTenantFilesStore: SyncStore {
    /// The directory the store lives in.
    public let directory: URL
    /// The main file, as a store: its identity is the server's, and it holds no tenant's data, so
    /// that a read of a tenant not registered yet finds nothing there.
    private let main: SQLiteSyncStore
    private let registry: TenantRegistry
    private let files: TenantFileCache
    /// Each tenant's log entries as its last transaction in this process left them (see
    /// ``logEntryCount()``): one entry per registered tenant at most.
    private let logEntries = Lock<[String: Int]>([:])
    /// Each unregistered tenant's first transaction, one at a time (``firstTransaction(tenant:_:)``).
    private let firstTransactions = TenantTurns()

    /// How many tenant files are open at once by default.
    public static let defaultOpenFileLimit = 64
    /// How many readers each tenant file has by default: a tenant's pulls and snapshots at once.
    public static let defaultReadersPerFile = 2

    private init(directory: URL, main: SQLiteSyncStore, files: TenantFileCache) {
        self.directory = directory
        self.main = main
        self.files = files
        registry = TenantRegistry(database: main.database)
    }

    /// Opens (creating when needed) the store in `directory`.
    ///
    /// - Parameters:
    ///   - directory: The store's directory, created (readable by its owner only) when it is not there.
    ///   - openFileLimit: The most tenant files open at once (at least 1).
    ///   - readersPerFile: The reader connections of each open tenant file (at least 1).
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` for a limit below 1, or when the
    ///   directory cannot be created; what opening the main file throws.
    public static func open(
        directory: URL, openFileLimit: Int = defaultOpenFileLimit, readersPerFile: Int = defaultReadersPerFile
    ) async throws -> SQLiteTenantFilesStore {
        try await open(directory: directory, openFileLimit: openFileLimit, readersPerFile: readersPerFile, beforeCheckpoint: nil)
    }

    /// ``open(directory:openFileLimit:readersPerFile:)``, with `beforeCheckpoint` called before each
    /// checkpoint of every tenant file (tests hold it there).
    static func open(
        directory: URL, openFileLimit: Int, readersPerFile: Int, beforeCheckpoint: (@Sendable () -> Void)?
    ) async throws -> SQLiteTenantFilesStore {
        guard openFileLimit >= 1 else { throw BoutiqueError.invalidArgument("openFileLimit must be at least 1, not \(openFileLimit)") }
        guard readersPerFile >= 1 else { throw BoutiqueError.invalidArgument("readersPerFile must be at least 1, not \(readersPerFile)") }
        let tenantsDirectory = directory.appendingPathComponent("tenants", isDirectory: true)
        do {
            // Its owner's alone, as the files in it: they hold every tenant's data.
            try FileManager.default.createDirectory(
                at: tenantsDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw BoutiqueError.invalidArgument("cannot create the store directory \(directory.path): \(error.localizedDescription)")
        }
        let database = try await DatabaseActor.open(
            url: directory.appendingPathComponent("main.db"), migrations: TenantRegistry.plan,
            options: DatabaseOptions(readerCount: 2, changeCapture: ChangeCaptureOptions(mode: .off)))
        let files = TenantFileCache(limit: openFileLimit) { name in
            try await SQLiteSyncStore.open(
                url: tenantsDirectory.appendingPathComponent(name), readerCount: readersPerFile, readsPerTenant: readersPerFile,
                beforeCheckpoint: beforeCheckpoint)
        }
        return SQLiteTenantFilesStore(directory: directory, main: SQLiteSyncStore.on(database), files: files)
    }

    /// Runs `body` in one write transaction of `tenant`'s file. A tenant not registered yet is
    /// registered once its first transaction commits: a transaction that throws leaves no file behind.
    public func transaction<T: Sendable>(
        tenant: String, _ body: @Sendable (any SyncStoreTransaction) throws -> T
    ) async throws -> T {
        guard let file = try await registry.file(of: tenant) else { return try await firstTransaction(tenant: tenant, body) }
        return try await transaction(in: file, tenant: tenant, body)
    }

    /// The first transaction of a tenant not registered yet, one at a time per tenant: its file is
    /// made for it, and the tenant registered only when it commits. A transaction that throws (a
    /// refused push, a failing store) leaves neither a registered tenant nor a file: tenants' names
    /// come from tokens, and a request that stored nothing must not take room on the disk. A file
    /// that was there before (the registry lost its row) is kept whatever happens.
    private func firstTransaction<T: Sendable>(
        tenant: String, _ body: @Sendable (any SyncStoreTransaction) throws -> T
    ) async throws -> T {
        try await firstTransactions.take(tenant)
        defer { firstTransactions.give(tenant) }
        // Another first transaction may have committed while this one waited for its turn.
        if let file = try await registry.file(of: tenant) { return try await transaction(in: file, tenant: tenant, body) }
        let file = try TenantFileName.forTenant(tenant)
        let url = try fileURL(of: tenant)
        let existed = FileManager.default.fileExists(atPath: url.path)
        do {
            // Registered before the file is given back: a failed registration removes the file as a
            // failed transaction does, and the device, answered with an error, sends its push again.
            return try await transaction(in: file, tenant: tenant, body, committed: { _ = try await self.registry.register(tenant) })
        } catch {
            if !existed {
                await files.closeIfOpen(file)
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
            }
            throw error
        }
    }

    /// Runs `body` in one write transaction of the tenant file `file`, then `committed` (with the file
    /// still lent, so that it is not closed meanwhile).
    private func transaction<T: Sendable>(
        in file: String, tenant: String, _ body: @Sendable (any SyncStoreTransaction) throws -> T,
        committed: () async throws -> Void = {}
    ) async throws -> T {
        let lease = try await files.acquire(file)
        do {
            let (result, entries) = try await lease.store.transaction(tenant: tenant) { store in
                let result = try body(store)
                return (result, Int(max(0, try store.latestSequence() - store.logHorizon())))
            }
            try await committed()
            logEntries.withLock { $0[tenant] = entries }
            await files.release(lease)
            return result
        } catch {
            await files.release(lease)
            throw error
        }
    }

    /// Runs `body` in a read transaction on one of the readers of `tenant`'s file (see
    /// ``SQLiteSyncStore/read(tenant:_:)``); a tenant not registered yet is read in the main file,
    /// which holds nothing of it.
    public func read<T: Sendable>(
        tenant: String, _ body: @Sendable (any SyncStoreTransaction) throws -> T
    ) async throws -> T {
        guard let file = try await registry.file(of: tenant) else { return try await main.read(tenant: tenant, body) }
        let lease = try await files.acquire(file)
        do {
            let result = try await lease.store.read(tenant: tenant, body)
            await files.release(lease)
            return result
        } catch {
            await files.release(lease)
            throw error
        }
    }

    /// Every registered tenant (from its first transaction on), in byte order.
    public func tenants() async throws -> [String] { try await registry.tenants() }

    /// The log entries of the tenants that committed a transaction since the store was opened, as
    /// each one's latest transaction left them: no file is opened to count. Every transaction that
    /// changes a tenant's log (a push, a garbage collection) goes through this store, so the count
    /// is exact for those tenants; a tenant not written since the store was opened is counted from
    /// its next transaction on, which ``SyncHousekeeping``'s rounds give every tenant (the first ten
    /// minutes after start). Another process writing the same directory is not seen.
    ///
    /// ```swift
    /// print("\(try await store.logEntryCount()) log entries")
    /// ```
    public func logEntryCount() async throws -> Int { logEntries.withLock { $0.values.reduce(0, +) } }

    /// The identity made when the main file was created: one for the whole directory.
    public func identity() async throws -> String? { try await main.identity() }

    /// The main file's history: one for the whole directory.
    public func history() async throws -> String? { try await main.history() }

    /// Gives the main file a new history: the whole directory's.
    public func startNewHistory() async throws { try await main.startNewHistory() }

    /// Frees the page caches of the main file and of every tenant file open now.
    public func releaseMemory() async {
        await main.releaseMemory()
        await files.forEachOpen { store in await store.releaseMemory() }
    }

    /// How many tenant files are open now (for tests).
    var openFileCount: Int { get async { await files.openCount } }

    /// How many times a tenant file was opened (for tests).
    var filesOpenedCount: Int { get async { await files.openedCount } }

    /// How many requests wait for a place among the open tenant files (for tests).
    var waitingForFileCount: Int { get async { await files.waitingCount } }

    /// The path of `tenant`'s file, whether it exists or not (for tests and operators' tools).
    func fileURL(of tenant: String) throws -> URL {
        directory.appendingPathComponent("tenants", isDirectory: true).appendingPathComponent(try TenantFileName.forTenant(tenant))
    }

    /// Closes every tenant file and the main file.
    public func close() async {
        await files.close()
        await main.close()
    }
}
