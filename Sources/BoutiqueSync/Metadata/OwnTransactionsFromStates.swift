/// This file's own transactions rebuilt from the row states, for a server that no longer has them (it
/// was restored from a backup made before they reached it) while the change log has pruned them.
///
/// The states hold what each write left: its cells (and a row's existence, or its latest delete) with
/// the stamp of the transaction that wrote them. Every part of a state stamped by one of the file's
/// transactions goes back as a change of that transaction: an insert where its stamp is the row's
/// existence, a delete where it is a removal, an update of its cells otherwise. Merged by the server,
/// these changes rebuild the file's part of every state; a part a later write overwrote (here or on
/// another device) is not in the state, and its transaction goes without it (empty, when nothing of it
/// is left), so that a re-sent older value never passes for the newer one.
///
/// ```swift
/// let transactions = try OwnTransactionsFromStates.transactions(after: 12, through: 40, tables: tables, sql)
/// // pushed in order, from the server's watermark 12: the server's watermark reaches 40 again
/// ```
enum OwnTransactionsFromStates {
    /// The file's own transactions after `after` through `through`, in order, each with what its
    /// writes left in the states. One the server refused goes empty under its id and stamp: it was
    /// undone, yet the server's watermark has to pass it again (it had passed it before the backup).
    static func transactions(after: Int64, through: Int64, tables: [String: SyncedTable], _ sql: SQLRunner) throws -> [SyncTransaction] {
        let own = try TransactionStamp.where {
            $0.mark != TransactionStamp.Mark.remote && $0.transactionID > after && $0.transactionID <= through
        }.order { $0.transactionID }.fetchAll(sql.connection)
        guard !own.isEmpty else { return [] }
        var wanted: Set<SyncStamp> = []
        for stamped in own where stamped.mark == TransactionStamp.Mark.local { wanted.insert(stamped.syncStamp) }
        var byStamp: [SyncStamp: [SyncChange]] = [:]
        let states = try RowStates(sql: sql)
        for name in tables.keys.sorted() {
            for (key, state) in try states.states(table: name) {
                for change in Self.changes(of: state, table: name, key: key, among: wanted) { byStamp[change.stamp, default: []].append(change) }
            }
        }
        return own.map { stamped in
            let stamp = stamped.syncStamp
            return SyncTransaction(id: stamped.transactionID, stamp: stamp, changes: byStamp[stamp] ?? [])
        }
    }

    /// The changes, one per stamp among `wanted`, that `state`'s parts with those stamps are.
    static func changes(of state: RowRegister, table: String, key: DatabaseValue, among wanted: Set<SyncStamp>) -> [SyncChange] {
        var columns: [SyncStamp: [SyncColumnValue]] = [:]
        for (name, cell) in state.cells.sorted(by: { $0.key < $1.key }) where wanted.contains(cell.stamp) {
            columns[cell.stamp, default: []].append(SyncColumnValue(name: name, value: cell.value))
        }
        var stamps = Set(columns.keys)
        if let existence = state.existence, wanted.contains(existence.stamp) { stamps.insert(existence.stamp) }
        if let removal = state.lastDelete, wanted.contains(removal) { stamps.insert(removal) }
        return stamps.sorted().map { stamp in
            let kind: SyncChange.Kind
            if let existence = state.existence, existence.stamp == stamp {
                kind = existence.exists ? .insert : .delete
            } else if state.lastDelete == stamp {
                kind = .delete
            } else {
                kind = .update
            }
            return SyncChange(table: table, key: key, kind: kind, columns: columns[stamp] ?? [], stamp: stamp)
        }
    }
}
