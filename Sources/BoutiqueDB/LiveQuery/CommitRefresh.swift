import BoutiqueSQLite

/// What a commit offers the live queries it is announced to, on the committing thread: the writer
/// connection, right after `COMMIT`, and until when they may keep it.
///
/// ```swift
/// refresh.begin(on: connection)          // the writer, before announcing its commit
/// if let connection = refresh.lend(forQueryThatTook: lastFetchDuration) { /* fetch here */ }
/// refresh.end()
/// ```
///
/// A live query whose fetch is quick is refreshed right after `COMMIT`, on the writer's thread and
/// connection, as the commit is announced: the new value is then one thread wake-up from its receiver
/// (the main actor, or the task iterating `observe`) instead of two, since a reader's queue would have
/// to wake first, and the writer's page cache already holds what the commit changed, which a reader
/// would read again. The write pays for it (its caller resumes after the fetch), so only queries that
/// took at most ``Limits/perQuery`` last time are fetched there, and together they have
/// ``Limits/perCommit`` of the writer's time, by the clock: a fetch still running when it is spent (a
/// query that was quick and is not any more) is stopped through SQLite's progress handler, and runs
/// again on a reader. The rest go to readers' queues, as slow queries and commits made by other
/// processes always do.
///
/// The writer connection is only lent while it reads what a reader would: not while it has `TEMP`
/// tables, views or triggers of its own (a temporary table hides the main table of the same name from
/// an unqualified query) or attached databases. (Settings a closure changed on the writer with a
/// `PRAGMA`, such as `case_sensitive_like`, apply to these fetches too.)
///
/// `@unchecked Sendable`: it travels in ``CommitNotice``, but only the writer's thread touches it, and
/// only between ``begin(on:)`` and ``end()``, while it announces a commit; notices published elsewhere
/// carry none.
final class CommitRefresh: @unchecked Sendable {
    /// How much of the writer's time live queries may take as a commit is announced.
    struct Limits: Sendable, Hashable {
        /// The longest a query's previous fetch may have taken for it to be fetched on the committing thread.
        var perQuery: Duration
        /// How long a commit's fetches on its own thread may take together.
        var perCommit: Duration

        /// 100 µs a query, 250 µs a commit: a few small queries, a fraction of what the write itself costs.
        static let standard = Limits(perQuery: .microseconds(100), perCommit: .microseconds(250))
    }

    let limits: Limits
    /// How many virtual-machine instructions a fetch runs between looks at the clock: a few microseconds.
    static let clockCheckInterval: Int32 = 1_000

    private let clock = ContinuousClock()
    /// The writer connection, in autocommit mode, while a commit is announced; `nil` otherwise.
    private var connection: Connection?
    private var deadline = ContinuousClock.now
    /// Whether the connection reads what a reader would, once asked during this commit.
    private var readsLikeAReader: Bool?
    private var isWatchingTheClock = false

    init(limits: Limits = .standard) {
        self.limits = limits
    }

    /// Lends `connection` (just committed) to the live queries about to hear of the commit, for
    /// ``Limits/perCommit`` from now.
    func begin(on connection: Connection) {
        self.connection = connection
        deadline = clock.now.advanced(by: limits.perCommit)
        readsLikeAReader = nil
    }

    /// Takes the connection back.
    func end() {
        if isWatchingTheClock {
            try? connection?.setProgressHandler(every: 0, nil)
            isWatchingTheClock = false
        }
        connection = nil
    }

    /// The writer connection, for a query whose previous fetch took `estimate`, when that fits what is
    /// left of the budget; `nil` when the query must go to a reader. A fetch on it stops with
    /// `.interrupt` once the budget is spent.
    func lend(forQueryThatTook estimate: Duration) -> Connection? {
        guard let connection, estimate <= limits.perQuery, clock.now.advanced(by: estimate) <= deadline else { return nil }
        if readsLikeAReader == nil { readsLikeAReader = Self.readsLikeAReader(connection) }
        guard readsLikeAReader == true else { return nil }
        if !isWatchingTheClock {
            // Removed in `end()`, before the announcer (which owns this object) could go.
            let stop = { [unowned(unsafe) self] in self.clock.now > self.deadline }
            guard (try? connection.setProgressHandler(every: Self.clockCheckInterval, stop)) != nil else { return nil }
            isWatchingTheClock = true
        }
        return connection
    }

    /// Whether an unqualified query on `connection` reads the same tables as on a reader: no attached
    /// database, and nothing in `temp`.
    private static func readsLikeAReader(_ connection: Connection) -> Bool {
        guard !connection.hasAttachedDatabases else { return false }
        // Usually nothing ever opened `temp`, and then nothing is in it; otherwise ask it.
        guard connection.hasOpenedTemporaryDatabase else { return true }
        return (try? connection.fetchValue("SELECT EXISTS (SELECT 1 FROM temp.sqlite_schema)")) == .integer(0)
    }
}
