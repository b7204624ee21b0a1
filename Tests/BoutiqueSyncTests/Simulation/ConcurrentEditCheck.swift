import BoutiqueSync
import BoutiqueSyncServer
import Foundation

/// What must hold of the edits that concurrent edits of the same column discarded, once the network
/// healed: told to their device exactly once, never told when every write that beat them was made
/// knowing them, and only when one was made without.
///
/// The server's log says it all: where each write is (its sequence number, none for a write that lost
/// at the server and was never logged) and how far each writer had pulled when it wrote
/// (``SyncChange/seen``). A write beaten on a column by other writers that all had not pulled it
/// (their cursor before its place) was discarded concurrently, and its device must report it once; a
/// write whose beaters all had pulled it was superseded knowingly, and must not be reported. A beater
/// the device got in a snapshot's row state (a bootstrap) came without a cursor: the device cannot
/// tell, and only the second rule holds there; so for a write whose place in the log no answer told
/// the device (its acknowledgement was lost, and it bootstrapped past the write).
enum ConcurrentEditCheck {
    private struct RowID: Hashable {
        let table: String
        let key: DatabaseValue
    }

    /// Whether a concurrent loss not told fails its seed: by default (`BOUTIQUE_SYNC_STRICT_LOSSES=0`
    /// only counts them, in ``Tally``, to look into a change that makes some go untold). The other
    /// rules always fail the seed.
    static let strict = ProcessInfo.processInfo.environment["BOUTIQUE_SYNC_STRICT_LOSSES"] != "0"

    /// The concurrent losses a run's devices were due to be told of, and how many of them were not.
    struct Tally: Sendable {
        var due = 0
        var untold = 0
    }

    static func check(devices: [SimulatedDevice], log: [ServerChange], model: ReferenceModel, tally: inout Tally) -> [String] {
        var failures: [String] = []
        var entries: [RowID: [ServerChange]] = [:]
        for entry in log { entries[RowID(table: entry.change.table, key: entry.change.key), default: []].append(entry) }

        /// Where the write stamped `stamp` is in the row's log, `nil` when it is not there.
        func position(of stamp: SyncStamp, in row: [ServerChange]) -> Int64? {
            row.filter { $0.change.stamp == stamp }.map(\.sequence).max()
        }
        /// Whether `beater` was made without the write at `position`; `nil` when its writer did not say.
        func concurrent(_ beater: ServerChange, with position: Int64?) -> Bool? {
            guard let seen = beater.change.seen else { return nil }
            return position.map { seen < $0 } ?? true
        }

        for device in devices {
            let own = device.pushedWriters.union(device.madeIdentifiers.withLock { $0 })
            // A file restored or copied has a history another file shares or forgot: what it is told
            // of old writes may be told again, or not at all, and another file's later writes under
            // the ids they share are not its own. The checks are of files with one history.
            guard !device.mayChangeReplica, device.origin == nil, device.forgottenWriters.isEmpty else { continue }
            // An edit a delete discarded comes back with a later insert (it was made after the delete),
            // and may then be overwritten: each of the two losses is told once.
            var told: [String: Int] = [:]
            for loss in device.losses where loss.kind == .editBeatenByConcurrentEdit {
                for name in loss.values.keys { told["\(loss.table)|\(loss.key)|\(loss.stamp)|\(name.lowercased())", default: 0] += 1 }
            }
            for (write, count) in told where count > 1 { failures.append("\(device.name) was told \(count) times of the loss of \(write)") }

            for loss in device.losses where loss.kind == .editBeatenByConcurrentEdit {
                let row = entries[RowID(table: loss.table, key: loss.key)] ?? []
                let at = position(of: loss.stamp, in: row)
                for name in loss.values.keys {
                    let column = name.lowercased()
                    let beaters = row.filter { entry in
                        loss.stamp < entry.change.stamp && !own.contains(entry.change.stamp.replica)
                            && entry.change.columns.contains { $0.name == column }
                    }
                    if !beaters.contains(where: { concurrent($0, with: at) == true }) {
                        failures.append(
                            "\(device.name) was told its edit of \(loss.table) \(loss.key).\(column) at \(loss.stamp) was overwritten concurrently, but every write that beat it knew it")
                    }
                }
            }

            // Every write of the device the server acknowledged, logged or not: a later one of its own
            // superseded an earlier one, whether the server kept it or not.
            var written: [RowID: [SyncChange]] = [:]
            for push in device.network.deliveredPushes where push.response.outcome == .accepted {
                let refused = Set((push.response.refusals ?? []).map(\.transactionID))
                for transaction in push.request.transactions where transaction.id <= push.response.appliedThrough && !refused.contains(transaction.id) {
                    for change in transaction.changes { written[RowID(table: change.table, key: change.key), default: []].append(change) }
                }
            }
            for push in device.network.deliveredPushes where push.response.outcome == .accepted {
                let refused = Set((push.response.refusals ?? []).map(\.transactionID))
                for transaction in push.request.transactions where transaction.id <= push.response.appliedThrough && !refused.contains(transaction.id) {
                    for change in transaction.changes where change.kind != .delete {
                        let id = RowID(table: change.table, key: change.key)
                        // Rows ever deleted are the delete's losses (``SyncLoss/Kind/editBeatenByDelete``).
                        guard let state = model.rows[ReferenceModel.RowID(table: change.table, key: change.key)],
                            state.lastDelete == nil, state.existence?.alive == true
                        else { continue }
                        let row = entries[id] ?? []
                        let at = position(of: change.stamp, in: row)
                        for column in change.columns {
                            let beaters = row.filter { entry in
                                change.stamp < entry.change.stamp && entry.change.columns.contains { $0.name == column.name }
                            }
                            let ownLater = (written[id] ?? []).contains { mine in
                                change.stamp < mine.stamp && (mine.kind == .delete || mine.columns.contains { $0.name == column.name })
                            }
                            // A write the device got in a snapshot's state came without its writer's cursor.
                            let fromSnapshot = beaters.contains {
                                device.network.gotInSnapshot(change.table, change.key, column.name, $0.change.stamp)
                            }
                            // A write whose acknowledgement was lost and whose place no answer told is
                            // somewhere in the log or nowhere: the device cannot tell.
                            guard !beaters.isEmpty, !ownLater, !fromSnapshot, device.network.placed(change.stamp),
                                // Its own later write superseded it; one of the same value took nothing away.
                                !beaters.contains(where: { own.contains($0.change.stamp.replica) }),
                                !beaters.contains(where: { $0.change.columns.first { $0.name == column.name }?.value == column.value })
                            else { continue }
                            let verdicts = beaters.map { concurrent($0, with: at) }
                            let write = "\(change.table)|\(change.key)|\(change.stamp)|\(column.name)"
                            if verdicts.allSatisfy({ $0 == true }) { tally.due += 1 }
                            if verdicts.allSatisfy({ $0 == true }), told[write] == nil { tally.untold += 1 }
                            if verdicts.allSatisfy({ $0 == true }), told[write] != 1, strict || told[write] != nil {
                                failures.append(
                                    "\(device.name): its edit of \(change.table) \(change.key).\(column.name) at \(change.stamp) was overwritten concurrently and it was told \(told[write] ?? 0) times")
                            }
                            if verdicts.allSatisfy({ $0 == false }), told[write] != nil {
                                failures.append(
                                    "\(device.name): its edit of \(change.table) \(change.key).\(column.name) at \(change.stamp) was overwritten knowingly and reported as a loss")
                            }
                        }
                    }
                }
            }
        }
        return failures
    }
}
