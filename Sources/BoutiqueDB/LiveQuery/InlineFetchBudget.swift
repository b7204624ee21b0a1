import BoutiqueSQLite

/// How long a committing thread may spend refreshing live queries itself before it goes on with the
/// next write.
///
/// ```swift
/// budget.renew()                                   // the writer, before announcing a commit
/// if budget.spend(lastFetchDuration) { /* fetch here, on the committing thread */ }
/// ```
///
/// A live query whose fetch is quick is refreshed on the thread that committed, right after `COMMIT`,
/// on a reader connection it leases there: the new value is then one thread wake-up from its receiver
/// (the main actor, or the task iterating `observe`) instead of two, since a reader's queue would have
/// to wake first. The write that committed pays for it, since its caller resumes after the fetch, so
/// only queries that took at most ``queryLimit`` last time are fetched there, and together no more than
/// ``commitLimit`` per commit; the rest go to readers' queues, as slow queries and commits made by
/// other processes always do. One budget serves all the notices of one commit; the writer renews it
/// for the next.
final class InlineFetchBudget: Sendable {
    /// The longest a query's previous fetch may have taken for it to be fetched on the committing thread.
    static let queryLimit: Duration = .microseconds(100)
    /// The most a commit spends, by its queries' previous fetch times, fetching on its own thread.
    static let commitLimit: Duration = .microseconds(250)

    private let remaining = Lock<Duration>(InlineFetchBudget.commitLimit)

    init() {}

    /// Restores the whole budget, for the next commit.
    func renew() {
        remaining.withLock { $0 = Self.commitLimit }
    }

    /// Takes `estimate` (a query's previous fetch time) from the budget; `false`, taking nothing, when
    /// the query is too slow or the budget too low.
    func spend(_ estimate: Duration) -> Bool {
        guard estimate <= Self.queryLimit else { return false }
        return remaining.withLock { remaining in
            guard estimate <= remaining else { return false }
            remaining -= estimate
            return true
        }
    }
}
