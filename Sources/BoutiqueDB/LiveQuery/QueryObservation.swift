import BoutiqueSQLite

/// Keeps one query's result current: fetches it once, then again after each commit that touched a
/// table it reads, and hands every new result to `deliver`.
///
/// ```swift
/// let observation = QueryObservation(database: database) { connection, region in
///     try fetcher.fetch(on: connection, computingRegion: region)
/// }
/// observation.start { result in print(result) }
/// // … observation.cancel()
/// ```
///
/// Fetches run on the reader pool, never on the caller's thread, one at a time. A fetch a commit calls
/// for starts on a free reader's queue, straight from the committing thread: the new result is on its
/// way to the receiver after one thread wake-up, not three. Commits that arrive
/// while a fetch runs are folded into one more fetch, so a burst of commits costs at most two. A commit
/// that touched none of the query's tables costs nothing but a set intersection. Results equal to the
/// previous one are not delivered. The observation holds its owner only weakly (through `deliver`),
/// and stops when cancelled or deinitialised.
final class QueryObservation<Value: Sendable>: Sendable {
    typealias Fetch = @Sendable (_ connection: Connection, _ computingRegion: Bool) throws -> (value: Value?, region: ReadRegion?)
    typealias Deliver = @Sendable (Result<Value, BoutiqueError>) async -> Bool

    private enum Phase {
        case idle
        case fetching
        /// Fetching, and a commit arrived since the fetch began: fetch again when it ends.
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

    /// Subscribes to commits and runs the first fetch. `deliver` returns `false` when its receiver is
    /// gone, which ends the observation.
    func start(_ deliver: @escaping Deliver) {
        let id = database.changeCenter.subscribe { [weak self] notice in self?.handle(notice) }
        let alreadyCancelled = state.withLock { state in
            state.subscription = id
            state.deliver = deliver
            return state.isCancelled
        }
        if alreadyCancelled {
            database.changeCenter.unsubscribe(id)
            return
        }
        schedule()
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

    /// How many times the query ran (the first fetch included).
    var fetchCount: Int { state.withLock { $0.fetchCount } }

    /// The tables the query reads, once the first fetch has found them.
    var region: ReadRegion? { state.withLock { $0.region } }

    /// Decides, on the committing thread, whether a commit calls for a fetch.
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
        if start { startTask() }
    }

    /// The database closed: the receiver hears `databaseClosed` (as a fetch would tell it) and the
    /// observation ends, instead of waiting for a commit that cannot come.
    private func endForClose() {
        guard let deliver = state.withLock({ $0.isCancelled ? nil : $0.deliver }) else { return }
        Task { [self] in
            _ = await deliver(.failure(.databaseClosed))
            cancel()
        }
    }

    private func schedule() {
        let start = state.withLock { state -> Bool in
            guard !state.isCancelled else { return false }
            return Self.markDirty(&state)
        }
        if start { startTask() }
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
            let (computeRegion, deliver) = state.withLock { state in
                state.fetchCount += 1
                return (state.regionIsStale, state.deliver)
            }
            guard let deliver else { return }
            let fetch = self.fetch
            let read: @Sendable (DatabaseConnection) throws -> (value: Value?, region: ReadRegion?) = { conn in
                try fetch(conn.connection, computeRegion)
            }
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
            var keepGoing = true
            switch result {
            case .success(let outcome):
                if let region = outcome.region {
                    state.withLock { state in
                        state.region = region
                        state.regionIsStale = false
                    }
                }
                if let value = outcome.value { keepGoing = await deliver(.success(value)) }
            case .failure(let error):
                if error == .cancelled, state.withLock({ $0.isCancelled }) { return }
                keepGoing = await deliver(.failure(error))
            }
            if !keepGoing { cancel() }
            let again = state.withLock { state -> Bool in
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
            if !again { return }
        }
    }
}
