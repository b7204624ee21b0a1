import BoutiqueSQLite

/// At most `perTenant` transactions at a time per tenant within this process, first come first served
/// within a tenant, taken before a connection.
///
/// ```swift
/// try await turns.take("acme")
/// defer { turns.give("acme") }
/// let worker = try await pool.acquire()
/// ```
///
/// A store's connections are few and shared by every tenant. Taken in arrival order alone, they go to
/// whoever asks most: four pulls of one tenant hold four readers, and a fifth tenant's pull waits for
/// one of them to finish a 4 MiB page; four waiting pushes of one tenant stand in the writer's line
/// ahead of another tenant's one-change push. Waiting here first, a tenant holds at most `perTenant`
/// connections (and, for writes, has at most one transaction in the writer's line), whatever it sends,
/// so another tenant waits at most for one transaction of each busy tenant. An entry exists only while
/// its tenant has a transaction running or waiting.
///
/// On PostgreSQL the tenant's advisory lock orders writes across server instances, and is taken after
/// a connection; without one turn per tenant for writes, a tenant with more waiting pushes than the
/// pool has connections would hold every connection while all but one wait for that lock.
final class TenantTurns: Sendable {
    private typealias Waiter = (id: UInt64, continuation: CheckedContinuation<Void, any Error>)

    /// A tenant's turns: how many are held, and who waits, first come first served. Thousands may
    /// wait (every long poll of a tenant woken by one commit reads), so the line is taken from its
    /// head by index, and changed only in place, never copied out of the dictionary.
    private struct Queue {
        /// Turns held now (at most `perTenant`).
        var running = 1
        private var waiting: [Waiter] = []
        private var head = 0

        var isEmpty: Bool { head == waiting.count }
        var waitingCount: Int { waiting.count - head }

        mutating func append(_ waiter: Waiter) { waiting.append(waiter) }

        mutating func popFirst() -> Waiter? {
            guard !isEmpty else { return nil }
            let first = waiting[head]
            head += 1
            if head == waiting.count {
                waiting.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= waiting.count {
                waiting.removeFirst(head)
                head = 0
            }
            return first
        }

        mutating func remove(id: UInt64) -> Waiter? {
            guard let index = waiting[head...].firstIndex(where: { $0.id == id }) else { return nil }
            return waiting.remove(at: index)
        }
    }

    private struct State {
        /// The tenants with a transaction running, and who waits after them.
        var busy: [String: Queue] = [:]
        var nextID: UInt64 = 0
    }

    /// How many turns one tenant may hold at once.
    let perTenant: Int
    private let state = Lock(State())

    /// Turns of which each tenant holds at most `perTenant` (at least 1) at once.
    init(perTenant: Int = 1) { self.perTenant = max(1, perTenant) }

    /// Waits for one of `tenant`'s turns.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/cancelled`` when the task is cancelled while waiting (it then
    ///   never gets the turn, and must not give it back).
    func take(_ tenant: String) async throws {
        let id = state.withLock { state in
            state.nextID &+= 1
            return state.nextID
        }
        let perTenant = self.perTenant
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Under the lock: a cancellation either comes before (seen here) or finds the waiter queued.
                let outcome = state.withLock { state -> Bool? in
                    guard let running = state.busy[tenant]?.running else {
                        state.busy[tenant] = Queue()
                        return true
                    }
                    if running < perTenant {
                        state.busy[tenant]?.running += 1
                        return true
                    }
                    if Task.isCancelled { return false }
                    state.busy[tenant]?.append((id, continuation))
                    return nil
                }
                switch outcome {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: BoutiqueError.cancelled)
                case nil: break
                }
            }
        } onCancel: {
            let removed = state.withLock { state in state.busy[tenant]?.remove(id: id)?.continuation }
            removed?.resume(throwing: BoutiqueError.cancelled)
        }
    }

    /// How many of `tenant`'s turns are held, and how many of its transactions wait for one: what a
    /// test waits for, rather than for time to pass.
    func count(_ tenant: String) -> (held: Int, waiting: Int) {
        state.withLock { state in state.busy[tenant].map { ($0.running, $0.waitingCount) } ?? (0, 0) }
    }

    /// Gives one of `tenant`'s turns to the next in line, or frees it.
    func give(_ tenant: String) {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            // In place: a copy of the queue would copy its whole line on the first change.
            guard state.busy[tenant] != nil else { return nil }
            if let next = state.busy[tenant]?.popFirst() { return next.continuation }
            state.busy[tenant]?.running -= 1
            if state.busy[tenant]?.running == 0 { state.busy[tenant] = nil }
            return nil
        }
        next?.resume()
    }
}
