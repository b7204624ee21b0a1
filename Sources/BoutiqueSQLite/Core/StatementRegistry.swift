/// The statements of one connection that are still alive, so that closing the connection can
/// finalize them.
///
/// It holds no weak references on purpose: a weak reference gives its object a side table, and every
/// retain and release of a statement would then take the runtime's slow path — measurable on the
/// per-row hot path. Instead each statement removes itself in `finalize()` or `deinit`, so every entry
/// is a live object, and the unowned references are never read after their statement is gone.
/// Like its connection, the registry belongs to one isolation domain at a time.
@usableFromInline
final class StatementRegistry {
    private var statements: [ObjectIdentifier: Unmanaged<Statement>] = [:]
    /// Told when a statement ends (see ``StatementEndObserver``); read after every statement's last step.
    /// Like the registry, used by one isolation domain at a time: no dynamic exclusivity check.
    @exclusivity(unchecked) @usableFromInline var endObserver: (any StatementEndObserver)?
    @exclusivity(unchecked) var isReportingEnd = false

    func insert(_ statement: Statement) {
        statements[ObjectIdentifier(statement)] = Unmanaged.passUnretained(statement)
    }

    func remove(_ statement: Statement) {
        statements[ObjectIdentifier(statement)] = nil
    }

    /// Finalizes every registered statement; each one removes itself as it goes.
    func finalizeAll() {
        let current = Array(statements.values)
        statements.removeAll()
        for entry in current { entry.takeUnretainedValue().finalize() }
    }
}
