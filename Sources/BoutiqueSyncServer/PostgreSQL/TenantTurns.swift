import Synchronization

/// One transaction at a time per tenant within this process, first come first served, taken before a
/// pooled connection.
///
/// ```swift
/// try await turns.take("acme")
/// defer { turns.give("acme") }
/// let worker = try await pool.acquire()
/// ```
///
/// The tenant's advisory lock (``PostgreSQLStoreTransaction``) orders transactions across server
/// instances; on its own it is taken *after* a connection, so a tenant with more waiting requests than
/// the pool has connections would hold every connection while all but one wait for that lock, and
/// every other tenant would wait behind them. Waiting here first, a tenant holds at most one of this
/// process's connections for its writes, whatever it sends. An entry exists only while its tenant has
/// a transaction running or waiting.
final class TenantTurns: Sendable {
    private struct Queue {
        var waiting: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    }

    private struct State {
        /// The tenants with a transaction running, and who waits after it.
        var busy: [String: Queue] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Waits for `tenant`'s turn.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/cancelled`` when the task is cancelled while waiting (it then
    ///   never gets the turn, and must not give it back).
    func take(_ tenant: String) async throws {
        let id = state.withLock { state in
            state.nextID &+= 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Under the lock: a cancellation either comes before (seen here) or finds the waiter queued.
                let outcome = state.withLock { state -> Bool? in
                    guard state.busy[tenant] != nil else {
                        state.busy[tenant] = Queue()
                        return true
                    }
                    if Task.isCancelled { return false }
                    state.busy[tenant]?.waiting.append((id, continuation))
                    return nil
                }
                switch outcome {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: BoutiqueError.cancelled)
                case nil: break
                }
            }
        } onCancel: {
            let removed = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.busy[tenant]?.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return state.busy[tenant]?.waiting.remove(at: index).continuation
            }
            removed?.resume(throwing: BoutiqueError.cancelled)
        }
    }

    /// Gives `tenant`'s turn to the next in line, or frees it.
    func give(_ tenant: String) {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard var queue = state.busy[tenant] else { return nil }
            guard !queue.waiting.isEmpty else {
                state.busy[tenant] = nil
                return nil
            }
            let next = queue.waiting.removeFirst().continuation
            state.busy[tenant] = queue
            return next
        }
        next?.resume()
    }
}
