import BoutiqueSQLite

/// The pending count ``SyncStatus`` shows, exact as soon as a local write returns.
///
/// ```swift
/// live.committedLocally(at: token)   // on the writer's thread, before the write returns: one more
/// live.counted(count)                // a count read later takes over the commits its read saw
/// live.value                         // the last count plus the commits made since its read
/// ```
///
/// Counting reads the stamps, which costs a read and a hop to the main actor, so it runs beside
/// commits, a burst at a time (``BoutiqueSync``). Shown alone, a count read after a write returned
/// was one behind. So each local commit to a synced table is also added here, on the writer's thread,
/// before its write returns: BoutiqueDB stamps exactly those commits, each one pending transaction.
/// A count then replaces the commits its read already saw (those at or before its
/// ``PendingCount/latestCommit``) and keeps those after.
///
/// What only a count can see (a push acknowledging transactions, another process's commits, stamps
/// marked refused) shows once the count that follows it is read.
final class LivePendingCount: Sendable {
    private struct State {
        /// The newest count read.
        var counted: PendingCount?
        /// Local commits to synced tables after the count's read, by their COMMIT token.
        var uncounted: [ChangeToken] = []
        /// The value observers last heard of, and whether the value changed since without their
        /// hearing of it (it may have been read then).
        var announced: Int?
        var changedUnannounced = false

        var value: Int { (counted?.value ?? 0) + uncounted.count }
    }

    private let state = Lock(State())

    init() {}

    /// The count to show now.
    var value: Int { state.withLock { $0.value } }

    /// Adds a local commit to a synced table, made at `token`.
    func committedLocally(at token: ChangeToken) {
        state.withLock { state in
            if let counted = state.counted, token <= counted.latestCommit { return }
            state.uncounted.append(token)
            state.changedUnannounced = true
        }
    }

    /// Takes `count` unless a later one was taken already, and says whether observers must now hear
    /// that the value changed (they are then taken to have heard).
    func counted(_ count: PendingCount) -> Bool {
        state.withLock { state in
            if let counted = state.counted, counted.sequence > count.sequence { return false }
            state.counted = count
            state.uncounted.removeAll { $0 <= count.latestCommit }
            let value = state.value
            guard state.changedUnannounced || state.announced != value else { return false }
            state.announced = value
            state.changedUnannounced = false
            return true
        }
    }
}
