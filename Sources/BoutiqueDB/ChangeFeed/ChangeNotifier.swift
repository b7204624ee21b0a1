
/// Tells live queries and change-feed readers about every commit, in this process or another one.
///
/// ```swift
/// let id = notifier.subscribe { notice in if notice.touches(region) { refresh() } }
/// notifier.publish(CommitNotice(token: token, tables: ["note"], isExternal: false))
/// notifier.unsubscribe(id)
/// ```
///
/// Handlers run on the publishing thread (the writer's, right after `COMMIT`, or the external-change
/// monitor's), so they only decide and schedule; the work happens elsewhere. The notifier also
/// remembers the tokens of this process's own commits, so that the monitor, which sees every commit
/// to the file, does not announce them a second time.
final class ChangeNotifier: Sendable {
    typealias Handler = @Sendable (CommitNotice) -> Void

    private struct State {
        var handlers: [UInt64: Handler] = [:]
        var nextID: UInt64 = 0
        var latestToken: ChangeToken?
        /// COMMIT ids written by this process that the monitor has not passed yet.
        var localCommits: Set<Int64> = []
        var publishedCount = 0
        /// Set by ``publishClose()``: later subscribers hear of the close at once.
        var isClosed = false
    }

    private let state = Lock(State())

    init() {}

    /// Adds `handler`; it hears every later commit until ``unsubscribe(_:)``, and the close. A handler
    /// added after the close hears of it at once.
    func subscribe(_ handler: @escaping Handler) -> UInt64 {
        let (id, closed) = state.withLock { state in
            state.nextID &+= 1
            state.handlers[state.nextID] = handler
            return (state.nextID, state.isClosed)
        }
        if closed { handler(.close) }
        return id
    }

    /// Tells every handler, once, that the database closed: no commit follows, so what waits for one
    /// (a live query between results) must end instead of waiting for ever.
    func publishClose() {
        let handlers = state.withLock { state -> [Handler] in
            guard !state.isClosed else { return [] }
            state.isClosed = true
            return Array(state.handlers.values)
        }
        for handler in handlers { handler(.close) }
    }

    func unsubscribe(_ id: UInt64) {
        _ = state.withLock { $0.handlers.removeValue(forKey: id) }
    }

    /// Tells every handler about a commit.
    func publish(_ notice: CommitNotice) {
        let handlers = state.withLock { state -> [Handler] in
            if let token = notice.token, token > (state.latestToken ?? .beginning) { state.latestToken = token }
            state.publishedCount += 1
            return Array(state.handlers.values)
        }
        for handler in handlers { handler(notice) }
    }

    /// The latest token announced, if any.
    var latestToken: ChangeToken? { state.withLock { $0.latestToken } }

    /// How many handlers are subscribed (for diagnostics and tests).
    var subscriberCount: Int { state.withLock { $0.handlers.count } }

    /// How many commits were announced so far (for diagnostics and tests).
    var publishedCount: Int { state.withLock { $0.publishedCount } }

    /// Records that this process is about to commit the transaction whose COMMIT row is `changeID`.
    ///
    /// Called before `COMMIT`, so that the monitor, racing on another connection, already knows the
    /// commit is not another process's when it sees it.
    func willCommitLocally(_ changeID: Int64) {
        _ = state.withLock { $0.localCommits.insert(changeID) }
    }

    /// Forgets a local commit that rolled back.
    func didNotCommitLocally(_ changeID: Int64) {
        _ = state.withLock { $0.localCommits.remove(changeID) }
    }

    /// Whether the COMMIT row `changeID` was written by this process; forgets it, since the monitor
    /// asks once per commit.
    func takeLocalCommit(_ changeID: Int64) -> Bool {
        state.withLock { $0.localCommits.remove(changeID) != nil }
    }

    /// Forgets local commits at or below `changeID`, which the monitor has passed.
    func forgetLocalCommits(through changeID: Int64) {
        state.withLock { state in state.localCommits = state.localCommits.filter { $0 > changeID } }
    }
}
