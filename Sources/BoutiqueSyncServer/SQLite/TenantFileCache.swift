import BoutiqueSQLite

/// The tenant files of a ``SQLiteTenantFilesStore`` that are open: at most ``limit`` at once, each lent
/// to the requests that use it and closed only when none does, the least recently used idle one first
/// when another file must open.
///
/// ```swift
/// let lease = try await files.acquire("5c0f…e1.db")
/// let latest = try await lease.store.read(tenant: "acme") { store in try store.latestSequence() }
/// await files.release(lease)
/// ```
///
/// An open file costs a writer connection, its readers, a checkpointer's connection and their page
/// caches: a server with thousands of tenants keeps those of the tenants that are active, not of all.
/// A request waits for a file only while every open one is in use by other requests, each for the
/// length of one store transaction; a file being closed counts as open until it is closed.
actor TenantFileCache {
    /// Opens (creating when needed) the tenant file of a name.
    typealias Opener = @Sendable (String) async throws -> SQLiteSyncStore

    /// A file lent to a request until ``release(_:)``.
    struct Lease: Sendable {
        let name: String
        fileprivate let id: UInt64
        let store: SQLiteSyncStore
    }

    private struct Entry {
        let id: UInt64
        /// The store, once opened; shared by the requests that came while it opened.
        let opening: Task<SQLiteSyncStore, any Error>
        /// Requests holding the file (or waiting for it to open).
        var users: Int
        /// When it was last taken or given back, on ``clock``.
        var lastUsed: UInt64
    }

    /// The most files open at once (at least 1).
    let limit: Int
    private let opener: Opener
    private var open: [String: Entry] = [:]
    /// Files being closed, by name: a request for one waits for its close before opening it again.
    private var closing: [String: Task<Void, Never>] = [:]
    /// Requests waiting for a file to close (or fail to open), so that theirs can open.
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var clock: UInt64 = 0
    private var nextID: UInt64 = 0
    private var isClosed = false

    /// A cache that opens files with `opener`, at most `limit` at once.
    init(limit: Int, opener: @escaping Opener) {
        self.limit = max(1, limit)
        self.opener = opener
    }

    /// How many files are open or being closed now.
    var openCount: Int { open.count + closing.count }

    /// How many requests wait for a place among the open files (for tests).
    var waitingCount: Int { waiting.count }

    /// How many times a file was opened (for tests): each open has an id of its own.
    var openedCount: Int { Int(nextID) }

    /// Lends the file `name`, opening it when it is not open.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/databaseClosed`` after ``close()``; what opening the file
    ///   throws (the next request tries again).
    func acquire(_ name: String) async throws -> Lease {
        while true {
            guard !isClosed else { throw BoutiqueError.databaseClosed }
            clock += 1
            if var entry = open[name] {
                entry.users += 1
                entry.lastUsed = clock
                open[name] = entry
                do {
                    return Lease(name: name, id: entry.id, store: try await entry.opening.value)
                } catch {
                    forget(name, id: entry.id)
                    throw error
                }
            }
            if let closed = closing[name] {
                await closed.value
                continue
            }
            if openCount >= limit {
                if let idle = open.filter({ $0.value.users == 0 }).min(by: { $0.value.lastUsed < $1.value.lastUsed }) {
                    await close(idle.key, idle.value).value
                } else {
                    await withCheckedContinuation { waiting.append($0) }
                }
                continue
            }
            nextID += 1
            let opener = self.opener
            let entry = Entry(id: nextID, opening: Task { try await opener(name) }, users: 0, lastUsed: clock)
            open[name] = entry
        }
    }

    /// Gives a file back; it stays open until its place is needed.
    func release(_ lease: Lease) {
        guard var entry = open[lease.name], entry.id == lease.id else { return }
        clock += 1
        entry.users -= 1
        entry.lastUsed = clock
        open[lease.name] = entry
        if entry.users == 0 { wakeWaiting() }
    }

    /// Runs `body` on every file open now, each lent for the while.
    func forEachOpen(_ body: (SQLiteSyncStore) async -> Void) async {
        for name in Array(open.keys) {
            guard open[name] != nil, let lease = try? await acquire(name) else { continue }
            await body(lease.store)
            release(lease)
        }
    }

    /// Closes the file `name` once no request holds it (a file about to be removed: its tenant's first
    /// transaction failed); returns when it is closed, or at once when it is not open.
    func closeIfOpen(_ name: String) async {
        while let entry = open[name], entry.users > 0 { await withCheckedContinuation { waiting.append($0) } }
        if let entry = open[name] { await close(name, entry).value }
        if let closed = closing[name] { await closed.value }
    }

    /// Refuses new requests and closes every file (after the transactions running on it).
    func close() async {
        isClosed = true
        for (name, entry) in open { _ = close(name, entry) }
        for task in Array(closing.values) { await task.value }
        wakeWaiting()
    }

    /// Removes an entry whose file failed to open, so that the next request opens it anew.
    private func forget(_ name: String, id: UInt64) {
        guard open[name]?.id == id else { return }
        open[name] = nil
        wakeWaiting()
    }

    /// Moves a file from the open ones to those being closed; the task ends when it is closed.
    private func close(_ name: String, _ entry: Entry) -> Task<Void, Never> {
        open[name] = nil
        let task = Task {
            if let store = try? await entry.opening.value { await store.close() }
            self.closed(name)
        }
        closing[name] = task
        return task
    }

    private func closed(_ name: String) {
        closing[name] = nil
        wakeWaiting()
    }

    /// Lets every waiting request look again (few wait, and each takes at most one place).
    private func wakeWaiting() {
        let woken = waiting
        waiting.removeAll()
        for continuation in woken { continuation.resume() }
    }
}
