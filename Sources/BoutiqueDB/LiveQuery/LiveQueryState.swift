import Observation

/// The current result of a live query on the main actor, and what went wrong while refreshing it:
/// the projected value of ``LiveQuery`` and ``LiveQueryOne``.
///
/// ```swift
/// @LiveQuery(db, { Note.all.order { $0.updatedAt.desc() }.asSelect() }) var notes: [Note] = []
///
/// if let error = $notes.error { showBanner(error) }
/// ```
///
/// It is `@Observable`: reading ``value`` (or the wrapped property) inside SwiftUI's `body` or
/// `withObservationTracking` makes the reader depend on it. The observation stops when the state goes
/// away with its owner.
@MainActor
@Observable
public final class LiveQueryState<Value: Sendable> {
    /// The latest result; the initial value until the first fetch finishes.
    public private(set) var value: Value
    /// The error of the latest refresh, `nil` once a refresh succeeds. The value keeps the last result.
    public private(set) var error: BoutiqueError?
    /// `true` until the first fetch finished (successfully or not).
    public private(set) var isLoading = true

    @ObservationIgnored private let observation: QueryObservation<Value>?
    /// Set by ``stop()``: a result already on its way to the main actor is dropped.
    @ObservationIgnored private var isStopped = false
    /// Called just before the value changes (`objectWillChange` of an enclosing `ObservableObject`).
    @ObservationIgnored var willChange: (() -> Void)?

    init(initialValue: Value, observation: QueryObservation<Value>) {
        self.value = initialValue
        self.observation = observation
        observation.start { [weak self, weak observation] result in
            // Detached: a task made on the committing thread would inherit the write's task-locals.
            // The observation fetches nothing more until the main actor has this result, so results
            // do not queue up behind a busy main actor.
            Task.detached(priority: Task.currentPriority) { @MainActor in
                guard let self, !self.isStopped else { return }
                self.apply(result)
                observation?.receiverCaughtUp()
            }
            return .inFlight
        }
    }

    /// A state that never refreshes: `failure` says why (no database to observe).
    init(initialValue: Value, failure: BoutiqueError) {
        self.value = initialValue
        self.error = failure
        self.isLoading = false
        self.observation = nil
    }

    deinit {
        observation?.cancel()
    }

    private func apply(_ result: Result<Value, BoutiqueError>) {
        willChange?()
        switch result {
        case .success(let newValue):
            value = newValue
            if error != nil { error = nil }
        case .failure(let failure):
            error = failure
        }
        if isLoading { isLoading = false }
    }

    /// How many times the query ran, the first fetch included: commits to tables it does not read
    /// leave it unchanged.
    public var fetchCount: Int { observation?.fetchCount ?? 0 }

    /// The tables the query reads, once known.
    var region: ReadRegion? { observation?.region }

    /// Stops refreshing; the value stays as it is, also when a result was already on its way.
    public func stop() {
        isStopped = true
        observation?.cancel()
    }
}
