import BoutiqueSyncCore

extension PushApplier {
    /// Why a change is refused when its text operations the server's text cannot apply: they build on characters
    /// or earlier operations of their writer that the server does not have (an earlier transaction of
    /// the writer was refused, or a device typed again what it had lost). Merged, they would wait in
    /// the server's text for ever, and every later edit of that writer behind them: the edit would
    /// show on its own device only. Refused, the device gets the server's text back and reports the
    /// edit (``/BoutiqueSync/SyncRefusal``), and its later edits are diffed against that text.
    ///
    /// Operations already waiting before the change (from an older server) do not count against it.
    /// `nil` when the change's operations all apply.
    func waitingText(_ change: SyncChange, merged: RowRegister, previous: RowRegister, transaction: Int64) -> RefusedWhileApplied.Refused? {
        let named = textColumns[change.table]
        guard !named.isEmpty else { return nil }
        for column in change.columns where named.contains(column.name) && CollaborativeTextValue.isEncoded(column.value) {
            guard let cell = merged.cells[column.name], let text = try? CollaborativeTextValue(cell.value).text(), text.waitingCount > 0
            else { continue }
            let waitingBefore = previous.cells[column.name].flatMap { try? CollaborativeTextValue($0.value).text().waitingCount } ?? 0
            guard text.waitingCount > waitingBefore else { continue }
            return RefusedWhileApplied.Refused(
                transactionID: transaction, change: change,
                reason: "transaction \(transaction) edits column '\(column.name.prefix(100))' of row \(String(describing: change.key).prefix(80)) of '\(change.table.prefix(100))' from text the server does not have (an earlier edit of its writer was refused or lost)",
                kind: .invalid)
        }
        return nil
    }
}
