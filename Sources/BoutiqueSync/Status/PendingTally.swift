/// Counts the local transactions that wait to be pushed, without reading them all again after each
/// commit.
///
/// A full count reads every unacknowledged stamp, which costs as much as the writes made offline; run
/// after every local commit, it made each write slower the longer a device had been offline. The tally
/// instead remembers the newest transaction it counted and, after a commit, adds the local
/// transactions past it: one seek down the stamps' key and the new rows. It counts everything again
/// only when something other than a new commit can have changed the answer:
///
/// - the acknowledged id moved (a push, in this process or another), which also follows each refusal
///   (a refused transaction is marked in the push that records the server's acknowledgement of it);
/// - the session rewrote older stamps (``invalidate()``: transactions stamped late, marked refused).
///
/// Transaction ids grow in commit order (one writer at a time, in every process), so a transaction
/// committed after a count always has an id past the one the count stopped at.
///
/// Counts run one at a time, in the order they were asked for: each builds on the previous one's.
actor PendingTally {
    /// What the last count saw.
    private struct Counted {
        var acknowledged: Int64
        var through: Int64
        var count: Int
    }

    private let database: DatabaseActor
    /// The transport's address: the progress counted against is the one kept for the server it
    /// reaches (``ServerAlias``), which another process may have found since.
    private let address: String
    private var counted: Counted?
    /// Moves with each ``invalidate()``: a count that began before it is not built on.
    private var generation = 0
    /// The count under way; the next one waits for it.
    private var running: Task<PendingCount, any Error>?
    /// The number the next count gets.
    private var nextSequence = 0

    init(database: DatabaseActor, address: String) {
        self.database = database
        self.address = address
    }

    /// Counts everything again at the next call.
    func invalidate() {
        counted = nil
        generation += 1
    }

    /// The number of local transactions not yet acknowledged, exact as of the read it makes.
    func count() async throws -> PendingCount {
        let previous = running
        nextSequence += 1
        let sequence = nextSequence
        let task = Task { [previous] in
            _ = try? await previous?.value
            let (value, latestCommit) = try await self.countAfterPrevious()
            return PendingCount(value: value, sequence: sequence, latestCommit: latestCommit)
        }
        running = task
        return try await task.value
    }

    /// The count, and the latest commit its read saw.
    private func countAfterPrevious() async throws -> (Int, ChangeToken) {
        let address = self.address
        let known = counted
        let began = generation
        let (fresh, latestCommit) = try await database.read { conn -> (Counted, ChangeToken) in
            let sql = SQLRunner(conn)
            let latestCommit = try ChangeLogReader.latestToken(on: sql.connection)
            let server = try ServerAlias.server(for: address, sql) ?? address
            let acknowledged = try ServerState.read(server: server, sql).acknowledged
            let through = try TransactionStamp.newestID(sql)
            if let known, known.acknowledged == acknowledged, known.through <= through {
                let added = try TransactionStamp.pendingCount(after: max(known.through, acknowledged), sql)
                return (Counted(acknowledged: acknowledged, through: through, count: known.count + added), latestCommit)
            }
            let count = try TransactionStamp.pendingCount(after: acknowledged, sql)
            return (Counted(acknowledged: acknowledged, through: through, count: count), latestCommit)
        }
        // A session that invalidated the count while this read ran wants a full count from the next one.
        if generation == began { counted = fresh }
        return (fresh.count, latestCommit)
    }
}

/// A count of pending transactions, numbered in the order the counts were made: of two counts shown
/// out of order, the later one wins.
struct PendingCount: Sendable, Equatable {
    var value: Int
    var sequence: Int
    /// The latest commit the count's read saw: local commits after it are not in `value`.
    var latestCommit: ChangeToken = .beginning
}
