import BoutiqueSQLite
import Foundation

/// The store read behind `/readyz`, shared: at most one in flight, whose answer every probe that
/// came meanwhile takes, and which later probes reuse for ``reuseFor``.
///
/// ```swift
/// let readiness = ReadinessRead(store: server.store)
/// let answer = await readiness.answer()   // one store read however many probes ask at once
/// ```
///
/// A probe is cheap for whoever sends it and costs the store a read (up to ``HealthProbe/readTimeout``):
/// a flood of probes, or a balancer with many nodes probing often, must not become as many reads
/// of a store that is slow already.
final class ReadinessRead: Sendable {
    /// How long an answer is reused: probes come every few seconds, and a second-old answer is as
    /// good as a new one.
    static let reuseFor: Duration = .seconds(1)

    private struct State {
        var inFlight: Task<HealthProbe.Answer, Never>?
        var last: (answer: HealthProbe.Answer, at: ContinuousClock.Instant)?
    }

    private let store: any SyncStore
    private let state = Lock(State())

    init(store: any SyncStore) { self.store = store }

    /// The answer of the read in flight, or of one made less than ``reuseFor`` ago, or of a new read;
    /// `isOwn` is true for the one probe that started the read, which alone reports its failure (a
    /// failed read is one store error, not one per probe that shared it).
    func answer() async -> (answer: HealthProbe.Answer, isOwn: Bool) {
        let now = ContinuousClock.now
        let store = self.store
        let next: Next = state.withLock { state in
            if let inFlight = state.inFlight { return .waiting(inFlight) }
            if let last = state.last, now - last.at < Self.reuseFor { return .recent(last.answer) }
            let read = Task { [weak self] in
                let answer = await HealthProbe.firstAnswer(store: store)
                self?.finished(answer)
                return answer
            }
            state.inFlight = read
            return .started(read)
        }
        switch next {
        case .recent(let answer): return (answer, false)
        case .waiting(let read): return (await read.value, false)
        case .started(let read): return (await read.value, true)
        }
    }

    /// An answer to hand out now, or a read to wait for.
    private enum Next {
        case recent(HealthProbe.Answer)
        case waiting(Task<HealthProbe.Answer, Never>)
        case started(Task<HealthProbe.Answer, Never>)
    }

    private func finished(_ answer: HealthProbe.Answer) {
        state.withLock { state in
            state.last = (answer, ContinuousClock.now)
            state.inFlight = nil
        }
    }
}
