/// How long the change log keeps committed transactions before they are pruned automatically.
///
/// ```swift
/// let options = DatabaseOptions(changeCapture: .init(retention: .transactions(10_000)))
/// ```
///
/// Pruning runs inside a write transaction now and then (every ``ChangeCaptureOptions/pruneInterval``
/// commits), so the log's size stays bounded without a job of its own. Readers of the change feed that
/// fall behind the retained history get an error rather than a silent gap.
public enum ChangeRetention: Sendable, Hashable {
    /// Keep every transaction until ``BoutiqueDB/pruneChanges(upTo:)`` removes it. The default.
    case unlimited
    /// Keep the latest `count` transactions.
    case transactions(Int)
    /// Keep the transactions committed within the last `duration` (by `change_time`, whole seconds).
    case age(Duration)
}
