
/// Wakes a change-feed reader when a commit is announced; unsubscribes when the reader goes away.
///
/// ```swift
/// let wakeUps = WakeUps(center: database.changeCenter)
/// let generation = wakeUps.generation      // read before looking at the log
/// // … read the log, find nothing new …
/// guard await wakeUps.wait(after: generation) else { return nil }   // false: cancelled
/// ```
final class WakeUps: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var waiter: CheckedContinuation<Bool, Never>?
    }

    private let state = Lock(State())
    private let center: ChangeCenter
    private let subscription = Lock<UInt64?>(nil)

    init(center: ChangeCenter) {
        self.center = center
        let id = center.subscribe { [weak self] _ in self?.signal() }
        subscription.withLock { $0 = id }
    }

    deinit {
        if let id = subscription.withLock({ $0 }) { center.unsubscribe(id) }
        state.withLock { $0.waiter.take() }?.resume(returning: false)
    }

    /// Counts announcements; a wait returns at once when one arrived since `generation` was read.
    var generation: UInt64 { state.withLock { $0.generation } }

    private func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            state.generation &+= 1
            return state.waiter.take()
        }
        waiter?.resume(returning: true)
    }

    /// Waits for an announcement after `generation`; `false` when the task was cancelled.
    func wait(after generation: UInt64) async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let resumeNow: Bool? = state.withLock { state in
                    if state.generation != generation { return true }
                    if Task.isCancelled { return false }
                    state.waiter = continuation
                    return nil
                }
                if let resumeNow { continuation.resume(returning: resumeNow) }
            }
        } onCancel: {
            state.withLock { $0.waiter.take() }?.resume(returning: false)
        }
    }
}
