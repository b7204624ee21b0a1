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
    ///
    /// So is a change whose operations name deleted characters the server compacted away (made from
    /// text older than garbage collection waited for: a device back after the retention period, or
    /// one that did not say how far back its edits were made). The merge cannot take them and keeps
    /// the server's text; accepted, the edit would be gone without a word.
    func waitingText(_ change: SyncChange, merged: RowRegister, previous: RowRegister, transaction: Int64) -> RefusedWhileApplied.Refused? {
        let named = textColumns[change.table]
        guard !named.isEmpty else { return nil }
        for column in change.columns where named.contains(column.name) && CollaborativeTextValue.isEncoded(column.value) {
            guard case .operations(let operations)? = try? CollaborativeTextValue(column.value), !operations.isEmpty,
                  let cell = merged.cells[column.name], let text = try? CollaborativeTextValue(cell.value).text()
            else { continue }
            let version = text.version
            guard operations.contains(where: { !version.contains($0.id) }) else { continue }
            let what = "transaction \(transaction) edits column '\(column.name.prefix(100))' of row \(String(describing: change.key).prefix(80)) of '\(change.table.prefix(100))'"
            let before = previous.cells[column.name].flatMap { try? CollaborativeTextValue($0.value).text() }
            if text.waitingCount > before?.waitingCount ?? 0 {
                return RefusedWhileApplied.Refused(
                    transactionID: transaction, change: change,
                    reason: "\(what) from text the server does not have (an earlier edit of its writer was refused or lost)", kind: .invalid)
            }
            // Neither applied nor waiting: the merge could not take them (checked on the text before,
            // so that operations waiting there from an older server do not count against it).
            guard var probe = before, (try? probe.apply(operations)) == nil else { continue }
            return RefusedWhileApplied.Refused(
                transactionID: transaction, change: change,
                reason: "\(what) from text older than the server keeps (deleted characters it names were compacted away)", kind: .invalid)
        }
        return nil
    }
}
