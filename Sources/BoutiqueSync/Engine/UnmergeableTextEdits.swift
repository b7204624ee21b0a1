/// Local writes of a collaborative text column that sync could not turn into text operations (the
/// row's stored text is damaged, the new value is past what a text holds, the recorded operations
/// were damaged since), kept until the session reports them on ``BoutiqueSync/refusals``.
///
/// Such a write is left out of the merge for its row and column only: the push carries no operations
/// for it, the table shows the merged text again, and the rest of the transaction, and of sync, goes
/// on. The fold that finds it runs inside a write transaction that may still roll back (and fold
/// again), so each write is reported once, by transaction, row and column.
final class UnmergeableTextEdits: Sendable {
    struct Edit: Hashable, Sendable {
        let transaction: Int64
        let table: String
        let key: DatabaseValue
        let column: String
    }

    private struct State {
        var waiting: [(edit: Edit, refusal: SyncRefusal)] = []
        var reported: Set<Edit> = []
    }

    private let state = Lock(State())

    /// Notes that `transaction`'s write `value` (when known) of `table`'s `column` in row `key` was
    /// left out, because of `error`.
    func note(transaction: Int64, table: String, key: DatabaseValue, column: String, value: DatabaseValue?, error: any Error) {
        let edit = Edit(transaction: transaction, table: table, key: key, column: column)
        var refusal = SyncRefusal(
            reason: .invalid,
            message: "the edit of collaborative text column '\(table).\(column)' was not merged and is not sent: \(error)",
            transactionID: transaction, table: table, key: key)
        if let value { refusal.values = [column: value] }
        state.withLock { state in
            guard !state.reported.contains(edit), !state.waiting.contains(where: { $0.edit == edit }) else { return }
            state.waiting.append((edit, refusal))
        }
    }

    /// The refusals not reported yet, each taken once.
    func take() -> [SyncRefusal] {
        state.withLock { state in
            let taken = state.waiting
            state.waiting = []
            for entry in taken { state.reported.insert(entry.edit) }
            return taken.map(\.refusal)
        }
    }
}
