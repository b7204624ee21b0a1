import Synchronization

/// Up to `capacity` resources (connections), made on demand and each lent to one caller at a time: the
/// mechanism under the database's reader pool and the sync server's PostgreSQL pool.
///
/// ```swift
/// let pool = LeasePool(capacity: 4) { Connection(…) }
/// let connection = try await pool.acquire()
/// defer { pool.release(connection) }
/// ```
///
/// A caller that finds every resource lent waits in line (first come, first served) until one comes
/// back; cancelling its task takes it out of the line. ``close(closing:)`` refuses new callers, waits
/// for the lent resources to come back, and closes every one.
package final class LeasePool<Resource: Sendable>: Sendable {
    private typealias Lease = Result<Resource, BoutiqueError>

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Lease, Never>
    }

    private struct State {
        var every: [Resource] = []
        var idle: [Resource] = []
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
        var isClosed = false
        /// `close()` calls waiting for the lent resources to come back.
        var drainWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Lock(State())
    /// The resources lent out. Changed only under `state`'s lock (so it agrees with the state there);
    /// an atomic so that ``hasLentResources`` can read it without the lock.
    private let lent = Atomic<Int>(0)
    private let capacity: Int
    private let make: @Sendable () -> Resource

    /// A pool of up to `capacity` resources, each made by `make` when first needed (under the pool's
    /// lock, so `make` must be quick: opening a connection lazily, not connecting).
    package init(capacity: Int, make: @escaping @Sendable () -> Resource) {
        self.capacity = max(1, capacity)
        self.make = make
    }

    /// `true` while some caller holds a resource (read without taking the pool's lock).
    package var hasLentResources: Bool { lent.load(ordering: .relaxed) > 0 }

    /// How many callers wait in line (for diagnostics and tests).
    package var waitingCount: Int { state.withLock { $0.waiters.count } }

    /// A resource for the caller's exclusive use until ``release(_:)``.
    ///
    /// - Throws: ``BoutiqueError/databaseClosed`` after ``close(closing:)``, ``BoutiqueError/cancelled``
    ///   when the task is cancelled while waiting.
    package nonisolated(nonsending) func acquire() async throws(BoutiqueError) -> Resource {
        let id = state.withLock { state in
            state.nextWaiterID &+= 1
            return state.nextWaiterID
        }
        let lease = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Lease, Never>) in
                let immediate: Lease? = state.withLock { state in
                    if state.isClosed { return .failure(.databaseClosed) }
                    if let resource = lend(&state) { return .success(resource) }
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

    /// A resource at once, when one is idle (or can be made); `nil` otherwise, and after
    /// ``close(closing:)``. For callers that must not wait: the caller that gets one must ``release(_:)``
    /// it. It never overtakes a caller in line: while one waits, every resource is lent (a resource
    /// given back goes straight to the first in line).
    package func tryAcquire() -> Resource? {
        state.withLock { state in
            guard !state.isClosed else { return nil }
            return lend(&state)
        }
    }

    /// Every idle resource at once, lent to the caller, who must ``release(_:)`` each; none that is
    /// lent or not yet made. For upkeep of resources nobody is using.
    package func takeIdle() -> [Resource] {
        state.withLock { state in
            guard !state.isClosed else { return [] }
            defer { state.idle.removeAll(keepingCapacity: true) }
            lent.add(state.idle.count, ordering: .relaxed)
            return state.idle
        }
    }

    /// Gives a resource back: to the first caller in line, else to the idle ones.
    package func release(_ resource: Resource) {
        let (next, drained) = state.withLock { state -> (Waiter?, [CheckedContinuation<Void, Never>]) in
            if !state.isClosed, !state.waiters.isEmpty {
                return (state.waiters.removeFirst(), [])
            }
            let stillLent = lent.subtract(1, ordering: .relaxed).newValue
            guard state.isClosed else {
                state.idle.append(resource)
                return (nil, [])
            }
            guard stillLent == 0 else { return (nil, []) }
            defer { state.drainWaiters.removeAll() }
            return (nil, state.drainWaiters)
        }
        next?.continuation.resume(returning: .success(resource))
        for waiter in drained { waiter.resume() }
    }

    /// Refuses new callers (they get ``BoutiqueError/databaseClosed``), waits for the lent resources
    /// to come back, and closes every resource with `closing`.
    package func close(closing: (Resource) async -> Void) async {
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
        let resources = state.withLock { state -> [Resource] in
            defer {
                state.every.removeAll()
                state.idle.removeAll()
            }
            return state.every
        }
        for resource in resources { await closing(resource) }
    }

    /// An idle resource, or a new one while the pool is below its capacity; `nil` when all are lent.
    private func lend(_ state: inout State) -> Resource? {
        let resource: Resource
        if let idle = state.idle.popLast() {
            resource = idle
        } else {
            guard state.every.count < capacity else { return nil }
            resource = make()
            state.every.append(resource)
        }
        lent.add(1, ordering: .relaxed)
        return resource
    }
}
