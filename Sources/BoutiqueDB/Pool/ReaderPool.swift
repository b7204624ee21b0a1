import Synchronization

/// The reader connections of a database: up to ``DatabaseOptions/readerCount`` of them, each lent to one
/// read at a time.
///
/// ```swift
/// let reader = try await pool.acquire()
/// let rows = try await reader.read({ conn in try conn.fetchAll("SELECT * FROM note") }, thenReturnTo: pool)
/// ```
///
/// A read that finds every reader busy waits in line (first come, first served) until one is released;
/// cancelling its task takes it out of the line. The pool never touches the writer, so reads do not wait
/// for writes.
final class ReaderPool: Sendable {
    private typealias Lease = Result<ReaderConnection, BoutiqueError>

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Lease, Never>
    }

    private struct State {
        var everyReader: [ReaderConnection] = []
        var idle: [ReaderConnection] = []
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
        var isClosed = false
        /// `close()` calls waiting for the lent readers to come back.
        var drainWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Lock(State())
    /// The readers lent out. Changed only under `state`'s lock (so it agrees with the state there);
    /// an atomic so that ``hasReadsInProgress`` can read it without the lock.
    private let lent = Atomic<Int>(0)
    private let location: DatabaseLocation
    private let options: DatabaseOptions

    init(location: DatabaseLocation, options: DatabaseOptions) {
        self.location = location
        self.options = options
    }

    /// `true` while some read holds a reader (read without taking the pool's lock).
    var hasReadsInProgress: Bool { lent.load(ordering: .relaxed) > 0 }

    /// A reader for the caller's exclusive use until ``release(_:)``.
    ///
    /// - Throws: ``BoutiqueError/databaseClosed`` after ``close()``, ``BoutiqueError/cancelled`` when the
    ///   task is cancelled while waiting.
    nonisolated(nonsending) func acquire() async throws(BoutiqueError) -> ReaderConnection {
        let id = state.withLock { state in
            state.nextWaiterID &+= 1
            return state.nextWaiterID
        }
        let lease = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Lease, Never>) in
                let immediate: Lease? = state.withLock { state in
                    if state.isClosed { return .failure(.databaseClosed) }
                    if let reader = lend(&state) { return .success(reader) }
                    // Checked under the lock that the cancellation handler takes too: either the handler
                    // already ran (and the flag is set) or it will find this waiter in the line.
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

    /// Gives a reader back: to the first read in line, else to the idle readers.
    func release(_ reader: ReaderConnection) {
        let (next, drained) = state.withLock { state -> (Waiter?, [CheckedContinuation<Void, Never>]) in
            if !state.isClosed, !state.waiters.isEmpty {
                return (state.waiters.removeFirst(), [])
            }
            let stillLent = lent.subtract(1, ordering: .relaxed).newValue
            guard state.isClosed else {
                state.idle.append(reader)
                return (nil, [])
            }
            guard stillLent == 0 else { return (nil, []) }
            defer { state.drainWaiters.removeAll() }
            return (nil, state.drainWaiters)
        }
        next?.continuation.resume(returning: .success(reader))
        for waiter in drained { waiter.resume() }
    }

    /// Refuses new reads, waits for the reads in progress, and closes every reader.
    func close() async {
        let waiters = state.withLock { state -> [Waiter] in
            state.isClosed = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(returning: .failure(.databaseClosed)) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let drained = state.withLock { state -> Bool in
                if lent.load(ordering: .relaxed) == 0 { return true }
                state.drainWaiters.append(continuation)
                return false
            }
            if drained { continuation.resume() }
        }
        let readers = state.withLock { state -> [ReaderConnection] in
            defer {
                state.everyReader.removeAll()
                state.idle.removeAll()
            }
            return state.everyReader
        }
        for reader in readers { await reader.close() }
    }

    /// An idle reader, or a new one while the pool is below its size; `nil` when all are lent.
    private func lend(_ state: inout State) -> ReaderConnection? {
        let reader: ReaderConnection
        if let idle = state.idle.popLast() {
            reader = idle
        } else {
            guard state.everyReader.count < options.readerCount else { return nil }
            reader = ReaderConnection(location: location, options: options)
            state.everyReader.append(reader)
        }
        lent.add(1, ordering: .relaxed)
        return reader
    }
}
