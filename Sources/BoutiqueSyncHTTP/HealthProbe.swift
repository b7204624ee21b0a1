import BoutiqueSQLite
import Foundation

/// The answers to the probes an orchestrator (Kubernetes, a load balancer) asks: `GET /healthz`,
/// whether the process serves at all, and `GET /readyz`, whether it should be sent devices now.
///
/// ```
/// GET /healthz  → 200 {"status":"ok"}
/// GET /readyz   → 200 {"status":"ready"} | 503 {"reason":"the store does not answer","status":"unavailable"}
/// ```
///
/// Ready means the store answers a cheap read (its identity) within ``readTimeout``, and the server is
/// not draining. Probes share the read (``ReadinessRead``): one at a time, its answer reused for a
/// second: after SIGTERM it answers 503 so that it is taken out of rotation while its requests
/// in flight finish.
enum HealthProbe {
    /// The longest `/readyz` waits for the store: a store that takes longer is not ready.
    static let readTimeout: Duration = .seconds(5)

    static func live() -> HTTPResponse {
        HTTPResponse(status: 200, body: Array(#"{"status":"ok"}"#.utf8))
    }

    /// The answer to `/readyz`, and the store's error when it failed and this probe made the read:
    /// for the server's log, not the answer (its text can name the database's host).
    static func ready(_ readiness: ReadinessRead, draining: Bool) async -> (response: HTTPResponse, storeError: String?) {
        if draining { return (unavailable("the server is draining: it is stopping"), nil) }
        let (answer, isOwn) = await readiness.answer()
        switch answer {
        case .timedOut:
            let problem = "the store did not answer within \(readTimeout.components.seconds) s"
            return (unavailable(problem), isOwn ? problem : nil)
        case .answered: return (HTTPResponse(status: 200, body: Array(#"{"status":"ready"}"#.utf8)), nil)
        case .failed(let problem): return (unavailable("the store does not answer"), isOwn ? problem : nil)
        }
    }

    /// How a read of the store ended.
    enum Answer: Sendable {
        case answered
        case failed(String)
        case timedOut
    }

    /// How the store's read ended, or `.timedOut` when it did not within ``readTimeout``. The read
    /// runs in a task of its own, so that a store stuck on a dead connection cannot hold the probe past
    /// its timeout.
    static func firstAnswer(store: any SyncStore) async -> Answer {
        let outcome = FirstAnswer()
        let read = Task {
            do {
                _ = try await store.identity()
                outcome.settle(.answered)
            } catch {
                outcome.settle(.failed(String(describing: error)))
            }
        }
        let timer = Task {
            try? await Task.sleep(for: readTimeout)
            outcome.settle(.timedOut)
        }
        defer {
            read.cancel()
            timer.cancel()
        }
        return await outcome.value()
    }

    /// The first of the answers given to it; later ones are dropped.
    private final class FirstAnswer: Sendable {
        private let state = Lock<(answer: Answer?, waiting: CheckedContinuation<Answer, Never>?)>((nil, nil))

        func settle(_ answer: Answer) {
            let waiting: CheckedContinuation<Answer, Never>? = state.withLock { state in
                guard state.answer == nil else { return nil }
                state.answer = answer
                defer { state.waiting = nil }
                return state.waiting
            }
            waiting?.resume(returning: answer)
        }

        func value() async -> Answer {
            await withCheckedContinuation { continuation in
                let settled: Answer? = state.withLock { state in
                    if let answer = state.answer { return answer }
                    state.waiting = continuation
                    return nil
                }
                if let settled { continuation.resume(returning: settled) }
            }
        }
    }

    private static func unavailable(_ reason: String) -> HTTPResponse {
        let body = (try? JSONSerialization.data(withJSONObject: ["status": "unavailable", "reason": reason], options: [.sortedKeys])) ?? Data()
        return HTTPResponse(status: 503, body: Array(body), retryAfterSeconds: 5)
    }
}
