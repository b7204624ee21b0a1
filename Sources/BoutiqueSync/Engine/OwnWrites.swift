/// Tells the writes this database file made from those pulled from elsewhere, by their stamps: a
/// loss is reported only to the device whose change was discarded.
///
/// Every open database (each process, each launch) stamps under a writer id of its own, recorded with
/// every local transaction's stamp in `boutique_sync_txn` (never pruned), so a stamp is this file's
/// when a local transaction carries its writer — one the server refused included. Answers are kept for the transaction that asks (a batch asks about a few writers).
final class OwnWrites {
    private let sql: SQLRunner
    private var known: [String: Bool] = [:]

    init(sql: SQLRunner) { self.sql = sql }

    /// Whether `stamp` is one of this file's local writes.
    func contains(_ stamp: SyncStamp) throws -> Bool {
        if let answer = known[stamp.replica] { return answer }
        let answer = try TransactionStamp.isLocalWriter(stamp.replica, sql)
        known[stamp.replica] = answer
        return answer
    }

    /// The cells of `state` this file wrote after the row's insert at `inserted` (and, given `stamps`,
    /// by those writes alone), current or hidden by a delete, with the latest of their stamps.
    func edits(of state: RowRegister, since inserted: SyncStamp?, among stamps: Set<SyncStamp>? = nil) throws
        -> (values: [String: DatabaseValue], latest: SyncStamp)?
    {
        var values: [String: DatabaseValue] = [:]
        var latest: SyncStamp?
        for (name, cell) in state.cells where inserted.map({ $0 < cell.stamp }) ?? true {
            if let stamps, !stamps.contains(cell.stamp) { continue }
            guard try contains(cell.stamp) else { continue }
            values[name] = cell.value
            if latest.map({ $0 < cell.stamp }) ?? true { latest = cell.stamp }
        }
        guard let latest else { return nil }
        return (values, latest)
    }

    /// The current cells of `state` this file wrote, with the latest of their stamps.
    func cells(of state: RowRegister) throws -> (values: [String: DatabaseValue], latest: SyncStamp)? {
        var values: [String: DatabaseValue] = [:]
        var latest: SyncStamp?
        for (name, cell) in state.cells where state.isCurrent(cell) {
            guard try contains(cell.stamp) else { continue }
            values[name] = cell.value
            if latest.map({ $0 < cell.stamp }) ?? true { latest = cell.stamp }
        }
        guard let latest else { return nil }
        return (values, latest)
    }
}
