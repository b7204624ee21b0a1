import BoutiqueSQLite
import BoutiqueTestSupport
import Foundation

struct TimedOut: Error, CustomStringConvertible {
    let seconds: Double
    var description: String { "timed out after \(seconds) s" }
}

/// How much longer than usual the deadlines are: `BOUTIQUE_TEST_TIMEOUT_SCALE`, for runs under a
/// sanitizer, which slows everything several times over.
let timeoutScale = TestBudget.timeoutScale

/// How long a test waits for something that must happen before it calls it a hang: `seconds` times
/// ``timeoutScale``, and never under three minutes.
///
/// Such a deadline only turns a hang into a failure, so it costs nothing to be generous: the wait ends
/// as soon as the event comes. A short one fails on a busy machine (a laptop building beside the tests,
/// a CI runner) for no fault of the code: with `stress-ng` on every core beside the whole suite, a live
/// query's next result and a change feed's next commit each once came more than a minute late. A
/// hang is still a hang at three minutes.
func hangDeadline(seconds: Double) -> Double { max(seconds * timeoutScale, 180) }

/// Runs `operation` and fails with ``TimedOut`` if it has not finished by ``hangDeadline(seconds:)``.
///
/// Unlike a task group this returns at the deadline even when the operation is stuck (a deadlock is
/// what some tests guard against); the stuck task is left behind.
func withTimeout<T: Sendable>(
    _ seconds: Double, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let seconds = hangDeadline(seconds: seconds)
    let outcome = FirstOutcome<T>()
    return try await withCheckedThrowingContinuation { continuation in
        outcome.set(continuation)
        Task {
            do { outcome.finish(.success(try await operation())) } catch { outcome.finish(.failure(error)) }
        }
        Task {
            try? await Task.sleep(for: .seconds(seconds))
            outcome.finish(.failure(TimedOut(seconds: seconds)))
        }
    }
}

/// Resumes a continuation with whichever result arrives first.
private final class FirstOutcome<T: Sendable>: Sendable {
    private let continuation = Lock<CheckedContinuation<T, any Error>?>(nil)

    func set(_ continuation: CheckedContinuation<T, any Error>) {
        self.continuation.withLock { $0 = continuation }
    }

    func finish(_ result: Result<T, any Error>) {
        continuation.withLock { $0.take() }?.resume(with: result)
    }
}
