import Synchronization

/// The committed transactions of a database after a token, as they are committed: an endless
/// `AsyncSequence` that reads the change log, then waits for the next commit.
///
/// ```swift
/// for try await transaction in db.changes(since: savedToken) {
///     try await upload(transaction.changes)
///     savedToken = transaction.token
/// }
/// ```
///
/// It reads the log itself, so it sees every transaction exactly once and in order, also those committed
/// while nobody was reading (by this process or, for a shared file, another). It ends when the task
/// iterating it is cancelled, and throws when the log was pruned past its position.
public struct ChangeFeed: AsyncSequence, Sendable {
    public typealias Element = ChangeTransaction

    let database: DatabaseActor
    let start: ChangeToken

    public func makeAsyncIterator() -> Iterator {
        Iterator(database: database, cursor: start)
    }

    /// Reads ahead a batch of transactions at a time and waits on commit notices between batches.
    public struct Iterator: AsyncIteratorProtocol {
        private let database: DatabaseActor
        private var cursor: ChangeToken
        private var buffered: [ChangeTransaction] = []
        private let wakeUps: WakeUps

        init(database: DatabaseActor, cursor: ChangeToken) {
            self.database = database
            self.cursor = cursor
            self.wakeUps = WakeUps(center: database.changeCenter)
        }

        public mutating func next() async throws -> ChangeTransaction? {
            while true {
                if !buffered.isEmpty {
                    let transaction = buffered.removeFirst()
                    cursor = transaction.token
                    return transaction
                }
                if Task.isCancelled { return nil }
                // Armed before reading, so that a commit landing during the read wakes the next wait.
                let generation = wakeUps.generation
                let after = cursor
                buffered = try await database.read { conn in
                    try ChangeLogReader.transactions(after: after, on: conn.connection)
                }
                if buffered.isEmpty {
                    guard await wakeUps.wait(after: generation) else { return nil }
                }
            }
        }
    }
}

/// Wakes a feed when a commit is announced; unsubscribes when the feed goes away.
final class WakeUps: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var waiter: CheckedContinuation<Bool, Never>?
    }

    private let state = Mutex(State())
    private let center: ChangeCenter
    private let subscription = Mutex<UInt64?>(nil)

    init(center: ChangeCenter) {
        self.center = center
        let id = center.subscribe { [weak self] _ in self?.signal() }
        subscription.withLock { $0 = id }
    }

    deinit {
        if let id = subscription.withLock({ $0 }) { center.unsubscribe(id) }
        state.withLock { $0.waiter.take() }?.resume(returning: false)
    }

    /// Counts announcements; a wait returns at once when one arrived since `generation` was read.
    var generation: UInt64 { state.withLock { $0.generation } }

    private func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            state.generation &+= 1
            return state.waiter.take()
        }
        waiter?.resume(returning: true)
    }

    /// Waits for an announcement after `generation`; `false` when the task was cancelled.
    func wait(after generation: UInt64) async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let resumeNow: Bool? = state.withLock { state in
                    if state.generation != generation { return true }
                    if Task.isCancelled { return false }
                    state.waiter = continuation
                    return nil
                }
                if let resumeNow { continuation.resume(returning: resumeNow) }
            }
        } onCancel: {
            state.withLock { $0.waiter.take() }?.resume(returning: false)
        }
    }
}
