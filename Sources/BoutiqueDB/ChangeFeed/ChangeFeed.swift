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
/// iterating it is cancelled, and throws ``BoutiqueError/changesPruned(requested:oldestAvailable:)`` when the
/// log was pruned past its position.
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
                do {
                    buffered = try await database.read { conn in
                        try ChangeLogReader.transactions(after: after, on: conn.connection)
                    }
                } catch {
                    // A cancellation that stopped the read ends the feed, as one between reads does.
                    if Task.isCancelled, (error as? BoutiqueError) == .cancelled { return nil }
                    throw error
                }
                if buffered.isEmpty {
                    guard await wakeUps.wait(after: generation) else { return nil }
                }
            }
        }
    }
}
