import BoutiqueSQLite

/// What a commit offers the live queries it is announced to, on the committing thread: the writer
/// connection, right after `COMMIT`, and how long they may keep it.
///
/// ```swift
/// refresh.begin(on: connection)          // the writer, before announcing its commit
/// if let connection = refresh.connection, refresh.spend(lastFetchDuration) { /* fetch here */ }
/// refresh.end()
/// ```
///
/// A live query whose fetch is quick is refreshed right after `COMMIT`, on the writer's thread and
/// connection, as the commit is announced: the new value is then one thread wake-up from its receiver
/// (the main actor, or the task iterating `observe`) instead of two, since a reader's queue would have
/// to wake first, and the writer's page cache already holds what the commit changed, which a reader
/// would read again. The write pays for it (its caller resumes after the fetch), so only queries that
/// took at most ``queryLimit`` last time are fetched there, and together no more than ``commitLimit``
/// per commit; the rest go to readers' queues, as slow queries and commits made by other processes
/// always do.
///
/// `@unchecked Sendable`: it travels in ``CommitNotice``, but only the writer's thread touches it, and
/// only between ``begin(on:)`` and ``end()``, while it announces a commit; notices published elsewhere
/// carry none.
final class CommitRefresh: @unchecked Sendable {
    /// The longest a query's previous fetch may have taken for it to be fetched on the committing thread.
    static let queryLimit: Duration = .microseconds(100)
    /// The most a commit spends, by its queries' previous fetch times, fetching on its own thread.
    static let commitLimit: Duration = .microseconds(250)

    /// The writer connection, in autocommit mode, while a commit is announced; `nil` otherwise.
    private(set) var connection: Connection?
    private var remaining = CommitRefresh.commitLimit

    init() {}

    /// Lends `connection` (just committed) to the live queries about to hear of the commit, with the
    /// whole budget.
    func begin(on connection: Connection) {
        self.connection = connection
        remaining = Self.commitLimit
    }

    /// Takes the connection back.
    func end() {
        connection = nil
    }

    /// Takes `estimate` (a query's previous fetch time) from the budget; `false`, taking nothing, when
    /// the query is too slow or the budget too low.
    func spend(_ estimate: Duration) -> Bool {
        guard estimate <= Self.queryLimit, estimate <= remaining else { return false }
        remaining -= estimate
        return true
    }
}
