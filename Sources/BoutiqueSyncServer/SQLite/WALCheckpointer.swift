import BoutiqueSQLite
import Foundation

/// Copies a SQLite store's write-ahead log into its database file on a connection and thread of its
/// own, so that no tenant's write waits for it.
///
/// ```swift
/// let checkpointer = try WALCheckpointer(path: url.path)
/// checkpointer.committed()   // after each write transaction; coalesced
/// await checkpointer.close()
/// ```
///
/// SQLite's own checkpoint runs inside the commit that takes the log past 1,000 pages, on the writer:
/// it copies every page of the log the readers allow into the database file and syncs the file. After
/// a tenant's 15 MB transaction that is 30 MB or more, and the store's one writer is held for it, so
/// every other tenant's push waits as well (on a shared disk, commits of 15 and 30 MB took 0.20 and
/// 0.79 s with it, 0.07 and 0.22 s without). The store turns the writer's checkpoint off and asks for one
/// here after each commit: a passive checkpoint, which runs beside the writer and the readers and
/// never waits for them. Requests that come while one runs make one more run after it, no more; runs
/// are at least ``pause`` apart, so a stream of small commits costs a sync of the file a few times a
/// second at most.
final class WALCheckpointer: @unchecked Sendable {
    // Safe: `connection` is used only on `queue`, a serial queue; the flags are under `state`.
    private let connection: Connection
    private let queue = DispatchQueue(label: "boutique.sync.server.checkpointer")
    private let state = Lock((requested: false, running: false, closed: false))

    /// The least time between two checkpoints.
    static let pause: DispatchTimeInterval = .milliseconds(100)

    /// Called on the checkpointer's thread before each checkpoint (tests hold it there).
    private let beforeCheckpoint: (@Sendable () -> Void)?

    /// A checkpointer for the database file at `path`, which must be in WAL mode.
    init(path: String, beforeCheckpoint: (@Sendable () -> Void)? = nil) throws {
        connection = try Connection(path: path, flags: [.readWrite, .noMutex])
        self.beforeCheckpoint = beforeCheckpoint
    }

    /// Asks for a checkpoint: one starts now unless one is running (then one more follows it).
    func committed() {
        let start = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.requested = true
            guard !state.running else { return false }
            state.running = true
            return true
        }
        if start { queue.async { self.run() } }
    }

    /// Runs checkpoints while they are asked for, on `queue`.
    private func run() {
        state.withLock { $0.requested = false }
        beforeCheckpoint?()
        // A checkpoint that cannot go on (another process checkpointing, say) is left to the next
        // request; the log then only grows until one can.
        _ = try? connection.fetchRows("PRAGMA wal_checkpoint(PASSIVE)")
        queue.asyncAfter(deadline: .now() + Self.pause) {
            let again = self.state.withLock { state -> Bool in
                state.running = state.requested && !state.closed
                return state.running
            }
            if again { self.run() }
        }
    }

    /// Stops checkpointing and closes the connection, once the checkpoint running (if any) is done.
    func close() async {
        state.withLock { $0.closed = true }
        // The last run may still be waiting out its pause: the queue runs this after it.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.asyncAfter(deadline: .now() + Self.pause) {
                self.connection.close()
                done.resume()
            }
        }
    }
}
