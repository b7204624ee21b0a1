/// A store's connections: up to `size` workers, each lent to one transaction at a time.
///
/// ```swift
/// let pool = PostgreSQLConnectionPool(url: url, size: 4)
/// let worker = try await pool.acquire()
/// defer { pool.release(worker) }
/// try await worker.transaction { connection in ... }
/// ```
///
/// A transaction that finds every worker busy waits in line (first come, first served); cancelling
/// its task takes it out of the line. Workers are made on demand, so a pool costs one connection
/// until requests overlap.
final class PostgreSQLConnectionPool: Sendable {
    private typealias Lease = Result<PostgreSQLWorker, BoutiqueError>

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Lease, Never>
    }

    private struct State {
        var every: [PostgreSQLWorker] = []
        var idle: [PostgreSQLWorker] = []
        var lent = 0
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
        var isClosed = false
        /// `close()` waiting for the lent workers to come back.
        var drainWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Lock(State())
    private let url: String
    private let size: Int

    init(url: String, size: Int) {
        self.url = url
        self.size = max(1, size)
    }

    /// A worker for the caller's use until ``release(_:)``.
    ///
    /// - Throws: ``BoutiqueError/databaseClosed`` after ``close()``, ``BoutiqueError/cancelled`` when
    ///   the task is cancelled while waiting.
    func acquire() async throws(BoutiqueError) -> PostgreSQLWorker {
        let id = state.withLock { state in
            state.nextWaiterID &+= 1
            return state.nextWaiterID
        }
        let lease = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Lease, Never>) in
                let immediate: Lease? = state.withLock { state in
                    if state.isClosed { return .failure(.databaseClosed) }
                    if let worker = lend(&state) { return .success(worker) }
                    // Checked under the lock the cancellation handler takes too: either it already
                    // ran (and the flag is set) or it will find this waiter in the line.
                    if Task.isCancelled { return .failure(.cancelled) }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(returning: .failure(.cancelled))
        }
        return try lease.get()
    }

    /// Gives a worker back: to the first transaction in line, else to the idle ones.
    func release(_ worker: PostgreSQLWorker) {
        let (next, drained) = state.withLock { state -> (Waiter?, [CheckedContinuation<Void, Never>]) in
            if !state.isClosed, !state.waiters.isEmpty { return (state.waiters.removeFirst(), []) }
            state.lent -= 1
            guard state.isClosed else {
                state.idle.append(worker)
                return (nil, [])
            }
            guard state.lent == 0 else { return (nil, []) }
            defer { state.drainWaiters.removeAll() }
            return (nil, state.drainWaiters)
        }
        next?.continuation.resume(returning: .success(worker))
        for waiter in drained { waiter.resume() }
    }

    /// Refuses new transactions, waits for those in progress, and closes every connection.
    func close() async {
        let waiters = state.withLock { state -> [Waiter] in
            state.isClosed = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(returning: .failure(.databaseClosed)) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let drained = state.withLock { state -> Bool in
                if state.lent == 0 { return true }
                state.drainWaiters.append(continuation)
                return false
            }
            if drained { continuation.resume() }
        }
        let workers = state.withLock { state -> [PostgreSQLWorker] in
            defer {
                state.every.removeAll()
                state.idle.removeAll()
            }
            return state.every
        }
        for worker in workers { await worker.close() }
    }

    /// An idle worker, or a new one while the pool is below its size; `nil` when all are lent.
    private func lend(_ state: inout State) -> PostgreSQLWorker? {
        let worker: PostgreSQLWorker
        if let idle = state.idle.popLast() {
            worker = idle
        } else {
            guard state.every.count < size else { return nil }
            worker = PostgreSQLWorker(url: url)
            state.every.append(worker)
        }
        state.lent += 1
        return worker
    }
}
