// A sync server process that kills itself (SIGKILL) right after its N-th push commits and before it
// replies: the crash a server's process can have between its store's commit and its answer.
//
//     BoutiqueSyncTestServer --store FILE --secret-file FILE --crash-after-push-commits N [--port PORT]
//
// It prints `listening on http://127.0.0.1:PORT` once ready, like `boutique serve`.
import BoutiqueSyncHTTP
import Foundation

/// Forwards to a store, and ends the process after the `limit`-th transaction that logged changes.
final class CrashingStore: SyncStore {
    let base: SQLiteSyncStore
    let limit: Int
    private let seen = Counter()

    init(base: SQLiteSyncStore, limit: Int) {
        self.base = base
        self.limit = limit
    }

    func transaction<T: Sendable>(tenant: String, _ body: @Sendable (any SyncStoreTransaction) throws -> T) async throws -> T {
        let result = try await base.transaction(tenant: tenant) { store -> (T, Bool) in
            let before = try store.latestSequence()
            let value = try body(store)
            return (value, try store.latestSequence() > before)
        }
        if result.1, seen.increment() >= limit {
            // Committed, not yet answered.
            kill(getpid(), SIGKILL)
        }
        return result.0
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }
}

func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

guard let storePath = option("--store"), let secretPath = option("--secret-file"),
    let limit = option("--crash-after-push-commits").flatMap(Int.init)
else {
    FileHandle.standardError.write(Data("usage: BoutiqueSyncTestServer --store FILE --secret-file FILE --crash-after-push-commits N [--port PORT]\n".utf8))
    exit(2)
}
// It outlives no test run: when the process that started it is gone, it ends too.
let parent = getppid()
Thread.detachNewThread {
    while getppid() == parent { usleep(200_000) }
    exit(3)
}
let port = option("--port").flatMap(Int.init) ?? 0
let store = CrashingStore(base: try await SQLiteSyncStore.open(url: URL(fileURLWithPath: storePath)), limit: limit)
let signer = try SyncTokenSigner(secretFile: URL(fileURLWithPath: secretPath))
let http = try SyncHTTPServer(server: SyncServer(store: store), signer: signer, port: port)
FileHandle.standardOutput.write(Data("listening on \(http.url.absoluteString)\n".utf8))
while true { try await Task.sleep(for: .seconds(3_600)) }
