/// What a push may carry in a collaborative text column (``TextColumns``), checked before anything of
/// it is applied: a push breaking it is refused whole (``/BoutiqueSync/SyncRefusal/Reason/invalid``,
/// HTTP 400, with the reason), nothing of it stored.
///
/// - Text operations that read: one that cannot be read would stop every replica merging it.
/// - Operations, never a whole state: a state is only checked by building it, and its few bytes may
///   claim millions of characters.
/// - Operations of the transaction's own writer (its stamp's): every character and deletion a device
///   sends is its own edit. One claiming another writer's ids would take that writer's place in every
///   replica's text (its later operations with those ids would be dropped as repeats), or make up
///   edits it never made.
///
/// A plain value is allowed (a row written before its column was collaborative, or by a device of an
/// older version): the merge reads it as text. Columns that are not collaborative are not looked at.
enum PushedText {
    struct Refused: Error {
        let reason: String
    }

    static func check(_ request: PushRequest, textColumns: TextColumns) throws(Refused) {
        guard !textColumns.isEmpty else { return }
        for transaction in request.transactions {
            for change in transaction.changes {
                let named = textColumns[change.table]
                guard !named.isEmpty else { continue }
                for column in change.columns where named.contains(column.name) {
                    guard CollaborativeTextValue.isEncoded(column.value) else { continue }
                    let place = "column '\(column.name.prefix(100))' of a change to '\(change.table.prefix(100))' in transaction \(transaction.id)"
                    if CollaborativeTextValue.isState(column.value) {
                        throw Refused(reason: "\(place) holds a whole collaborative text state; a push carries text operations")
                    }
                    guard case .operations(let operations)? = try? CollaborativeTextValue(column.value) else {
                        throw Refused(reason: "\(place) holds a damaged collaborative text value")
                    }
                    let writer = transaction.stamp.replica
                    if let foreign = operations.first(where: { $0.id.replica != writer }) {
                        throw Refused(
                            reason: "\(place) carries a text operation of writer '\(foreign.id.replica.prefix(100))'; a transaction stamped by '\(writer.prefix(100))' carries only its own")
                    }
                }
            }
        }
    }
}
