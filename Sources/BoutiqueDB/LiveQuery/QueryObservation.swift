import BoutiqueSQLite

/// Keeps one query's result current: fetches it once, then again after each commit that touched a
/// table it reads, and hands every new result to `deliver`.
///
/// ```swift
/// let observation = QueryObservation(database: database) { connection, site in
///     try fetcher.fetch(on: connection, at: site)
/// }
/// observation.start { result in print(result); return .taken }
/// // … observation.cancel()
/// ```
///
/// Fetches never run on the caller's thread, and one at a time. After a commit in this process, a
/// query whose last fetch was quick is fetched right there, on the writer's thread and connection
/// (see ``CommitRefresh``); any other fetch starts on a free reader's queue, straight from the
/// committing thread. Either way the new result is one thread wake-up from its receiver. Commits
/// that arrive while a fetch runs, or while its result is on its way to a receiver that takes it later
/// (the main actor), are folded into one more fetch, so a burst of commits costs at most two and a busy
/// main actor does not pile results up. A commit that touched none of the query's tables costs nothing
/// but a set intersection. Results equal to the previous one are not delivered. The observation holds
/// its owner only weakly (through `deliver`), and stops when cancelled or deinitialised.
final class QueryObservation<Value: Sendable>: Sendable {
    /// Runs the query on `connection` and says what it read (when `site` asks). At ``FetchSite/writer``
    /// it must refuse anything but a query: nothing else there would.
    typealias Fetch = @Sendable (_ connection: Connection, _ site: FetchSite) throws -> (value: Value?, region: ReadRegion?)
    /// Hands a result to the receiver, on whichever thread fetched it, without waiting for the receiver.
    typealias Deliver = @Sendable (Result<Value, BoutiqueError>) -> Delivery

    /// What became of a result handed to the receiver.
    enum Delivery: Sendable {
        /// The receiver has it (a stream buffered it).
        case taken
        /// It is on its way (to the main actor); the receiver calls ``receiverCaughtUp()`` when it has it.
        /// No fetch starts meanwhile.
        case inFlight
        /// The receiver is gone: the observation ends.
        case receiverGone
    }

    private enum Phase {
        case idle
        /// A fetch runs, or its result is on its way to the receiver.
        case fetching
        /// The same, and a commit arrived since the fetch began: fetch again once it is over.
        case fetchingAgain
    }

    private struct State {
        var phase = Phase.idle
        var region: ReadRegion?
        var regionIsStale = true
        var isCancelled = false
        var subscription: UInt64?
        var deliver: Deliver?
        var fetchCount = 0
        var task: Task<Void, Never>?
        /// How long the query took the last time it ran (its read transaction excluded): whether the
        /// committing thread may fetch it.
        var lastFetchDuration: Duration?
        /// Set when the writer connection refused the query or it failed there: it is not fetched
        /// there again.
        var isRefusedOnWriter = false
    }

    private let state = Lock(State())
    private let database: DatabaseActor
    private let fetch: Fetch

    init(database: DatabaseActor, fetch: @escaping Fetch) {
        self.database = database
        self.fetch = fetch
    }

    deinit {
        let (subscription, task) = state.withLock { ($0.subscription, $0.task) }
        if let subscription { database.changeCenter.unsubscribe(subscription) }
        task?.cancel()
    }

    /// Subscribes to commits and runs the first fetch. `deliver` returns ``Delivery/receiverGone`` when
    /// its receiver is gone, which ends the observation.
    func start(_ deliver: @escaping Deliver) {
        // The receiver first: a commit heard as soon as the subscription exists must find someone to
        // deliver to, or its fetch would end with nothing done and the observation stay busy.
        guard state.withLock({ state in
            if !state.isCancelled { state.deliver = deliver }
            return !state.isCancelled
        }) else { return }
        let id = database.changeCenter.subscribe { [weak self] notice in self?.handle(notice) }
        let cancelledMeanwhile = state.withLock { state in
            state.subscription = id
            return state.isCancelled
        }
        if cancelledMeanwhile {
            database.changeCenter.unsubscribe(id)
            return
        }
        let start = state.withLock { state -> Bool in
            guard !state.isCancelled else { return false }
            return Self.markDirty(&state)
        }
        if start { startTask() }
    }

    /// Stops observing: no fetch starts and nothing is delivered after this returns.
    func cancel() {
        let (subscription, task) = state.withLock { state -> (UInt64?, Task<Void, Never>?) in
            state.isCancelled = true
            state.deliver = nil
            defer {
                state.subscription = nil
                state.task = nil
            }
            return (state.subscription, state.task)
        }
        if let subscription { database.changeCenter.unsubscribe(subscription) }
        task?.cancel()
    }

    /// Called by a receiver once it has a result that was ``Delivery/inFlight``: the fetch that
    /// commits called for meanwhile starts now.
    func receiverCaughtUp() {
        if nextFetchIsDue() { startTask() }
    }

    /// How many times the query ran (the first fetch included).
    var fetchCount: Int { state.withLock { $0.fetchCount } }

    /// Whether no fetch runs, is due or waits for its receiver: the next commit is handled afresh.
    var isIdle: Bool { state.withLock { $0.phase == .idle } }

    /// The tables the query reads, once the first fetch has found them.
    var region: ReadRegion? { state.withLock { $0.region } }

    /// Decides, on the committing thread, whether a commit calls for a fetch, and where it runs.
    private func handle(_ notice: CommitNotice) {
        if notice.isClose {
            endForClose()
            return
        }
        let start = state.withLock { state -> Bool in
            guard !state.isCancelled else { return false }
            if notice.changesSchema { state.regionIsStale = true }
            guard notice.touches(state.region) else { return false }
            return Self.markDirty(&state)
        }
        guard start else { return }
        if let refresh = notice.refresh, fetchOnCommittingThread(refresh) { return }
        startTask()
    }

    /// The database closed: the receiver hears `databaseClosed` (as a fetch would tell it) and the
    /// observation ends, instead of waiting for a commit that cannot come.
    private func endForClose() {
        guard let deliver = state.withLock({ $0.isCancelled ? nil : $0.deliver }) else { return }
        // Cancelled first, so that a receiver catching up with this last result starts nothing.
        cancel()
        _ = deliver(.failure(.databaseClosed))
    }

    /// Records that a fetch is needed; `true` when the caller must start one.
    private static func markDirty(_ state: inout State) -> Bool {
        switch state.phase {
        case .idle:
            state.phase = .fetching
            return true
        case .fetching, .fetchingAgain:
            state.phase = .fetchingAgain
            return false
        }
    }

    /// Runs the fetch a commit called for here, on the writer connection `refresh` lends, when the
    /// query was quick last time and the commit's budget allows it; `false` when it did not run (the
    /// caller starts a task instead). A fetch that fails here runs again on a reader's queue, which
    /// reports the error; one the budget stopped there is tried here again once it is quick again.
    private func fetchOnCommittingThread(_ refresh: CommitRefresh) -> Bool {
        let estimate = state.withLock { state -> Duration? in
            // A query reading a pragma's table-valued function could run the pragma on the writer
            // (`pragma_optimize` writes statistics), where no `query_only` stops it.
            guard !state.regionIsStale, !state.isRefusedOnWriter, let region = state.region,
                !region.readsPragmaFunction
            else { return nil }
            return state.lastFetchDuration
        }
        guard let estimate, let connection = refresh.lend(forQueryThatTook: estimate) else { return false }
        let outcome: (value: Value?, region: ReadRegion?)
        do {
            outcome = try timedRead(at: .writer)(DatabaseConnection(connection, isReadOnly: true))
        } catch {
            // Stopped by the budget: it is slow now; a reader runs it and times it.
            let stoppedByTheBudget = (error as? BoutiqueError)?.isInterruption ?? ((error as? SQLiteError)?.code == .interrupt)
            if !stoppedByTheBudget { state.withLock { $0.isRefusedOnWriter = true } }
            return false
        }
        state.withLock { $0.fetchCount += 1 }
        if settle(.success(outcome)) { startTask() }
        return true
    }

    private func startTask() {
        // A reader leased here, on the committing thread, lets the task start on its queue.
        let reader = database.readers.tryAcquire()
        let task = Task(executorPreference: reader?.taskExecutor) { [self] in await self.fetchUntilCurrent(startingWith: reader) }
        state.withLock { state in
            if state.isCancelled { task.cancel() } else { state.task = task }
        }
    }

    /// Fetches until no commit arrived during the last fetch, delivering each changed result. The first
    /// fetch runs on `leased` when given (the task owns it until that read gives it back).
    private func fetchUntilCurrent(startingWith leased: ReaderConnection?) async {
        var leased = leased
        defer { if let leased { database.readers.release(leased) } }
        while true {
            let computeRegion = state.withLock { state -> Bool? in
                guard state.deliver != nil else { return nil }
                state.fetchCount += 1
                return state.regionIsStale
            }
            guard let computeRegion else { return }
            let read = timedRead(at: .reader(computingRegion: computeRegion))
            let result: Result<(value: Value?, region: ReadRegion?), BoutiqueError>
            do {
                if let reader = leased {
                    leased = nil
                    result = .success(try await reader.read(read, thenReturnTo: database.readers))
                } else {
                    result = .success(try await database.read(read))
                }
            } catch {
                result = .failure(BoutiqueError.library(error, writing: false))
            }
            if !settle(result) { return }
        }
    }

    /// The fetch as a read, recording how long the query took.
    private func timedRead(at site: FetchSite) -> @Sendable (DatabaseConnection) throws -> (value: Value?, region: ReadRegion?) {
        let fetch = self.fetch
        return { [state] connection in
            let clock = ContinuousClock()
            let started = clock.now
            let outcome = try fetch(connection.connection, site)
            let duration = started.duration(to: clock.now)
            state.withLock { $0.lastFetchDuration = duration }
            return outcome
        }
    }

    /// Records a fetch's region, hands its result to the receiver and settles what follows; `true`
    /// when a commit arrived meanwhile and another fetch must start now.
    private func settle(_ result: Result<(value: Value?, region: ReadRegion?), BoutiqueError>) -> Bool {
        let deliver = state.withLock { state -> Deliver? in
            if case .success(let outcome) = result, let region = outcome.region {
                state.region = region
                state.regionIsStale = false
            }
            return state.deliver
        }
        guard let deliver else { return false }
        let delivery: Delivery
        switch result {
        case .success(let outcome):
            delivery = outcome.value.map { deliver(.success($0)) } ?? .taken
        case .failure(let error):
            if error == .cancelled, state.withLock({ $0.isCancelled }) { return false }
            delivery = deliver(.failure(error))
        }
        switch delivery {
        case .taken:
            return nextFetchIsDue()
        case .inFlight:
            return false
        case .receiverGone:
            cancel()
            return false
        }
    }

    /// Ends the current fetch; `true` when a commit arrived during it and another must start.
    private func nextFetchIsDue() -> Bool {
        state.withLock { state in
            guard !state.isCancelled else { return false }
            switch state.phase {
            case .fetchingAgain:
                state.phase = .fetching
                return true
            case .fetching, .idle:
                state.phase = .idle
                state.task = nil
                return false
            }
        }
    }
}
