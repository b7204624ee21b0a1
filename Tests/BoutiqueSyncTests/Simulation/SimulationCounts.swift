import BoutiqueSync

/// What the simulator's runs did that the checks do not show: how many moves of tags from note to note
/// the server acknowledged, and how many losses sync reported, by kind.
struct SimulationCounts: Sendable {
    var moves = 0
    var losses: [SyncLoss.Kind: Int] = [:]
    /// Transactions the server refused (each once, however often it was pushed).
    var refusals = 0
    /// Writes made by another process sharing a device's file, with no sync running there.
    var otherProcessWrites = 0
    /// Edits overwritten concurrently whose device was due to be told, and how many were not.
    var concurrentLosses = ConcurrentEditCheck.Tally()
    /// Devices set up again with another spelling of their server's address.
    var addressChanges = 0
    /// Times a device's address led to another store (and back).
    var otherStores = 0
    /// Parts of transactions too large for one push that reached the server.
    var transactionParts = 0

    init() {}

    init(devices: [SimulatedDevice]) {
        for device in devices {
            var refused: Set<String> = []
            for push in device.network.deliveredPushes where push.response.outcome == .accepted {
                let refusedHere = Set((push.response.refusals ?? []).map(\.transactionID))
                for transaction in push.request.transactions where refusedHere.contains(transaction.id) {
                    refused.insert("\(push.request.replica)#\(transaction.id)")
                }
                for transaction in push.request.transactions
                where transaction.id <= push.response.appliedThrough && !refusedHere.contains(transaction.id) {
                    moves += transaction.changes.filter { change in
                        change.table == "tag" && change.kind == .update && change.columns.contains { $0.name == "noteid" }
                    }.count
                }
            }
            for loss in device.losses { losses[loss.kind, default: 0] += 1 }
            transactionParts += device.network.transactionParts
            refusals += refused.count
        }
    }

    mutating func add(_ other: SimulationCounts) {
        moves += other.moves
        losses.merge(other.losses, uniquingKeysWith: +)
        refusals += other.refusals
        otherProcessWrites += other.otherProcessWrites
        concurrentLosses.due += other.concurrentLosses.due
        concurrentLosses.untold += other.concurrentLosses.untold
        addressChanges += other.addressChanges
        otherStores += other.otherStores
        transactionParts += other.transactionParts
    }

    var description: String {
        let kinds = SyncLoss.Kind.allCases.map { "\($0.rawValue) \(losses[$0] ?? 0)" }.joined(separator: ", ")
        return "\(moves) acknowledged moves, \(refusals) transactions refused, \(otherProcessWrites) writes by other processes; losses reported: \(kinds); "
            + "edits overwritten concurrently: \(concurrentLosses.due) due to be told, \(concurrentLosses.untold) not told; "
            + "\(transactionParts) parts of large transactions, \(addressChanges) address respellings, \(otherStores) visits to another store"
    }
}
