import Synchronization

/// Set once the server starts to stop; read by every `/readyz`.
final class DrainingFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    var isSet: Bool { flag.load(ordering: .relaxed) }

    func set() { flag.store(true, ordering: .relaxed) }
}
