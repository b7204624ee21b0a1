import BoutiqueSync

/// What the simulator's runs did that the checks do not show: how many moves of tags from note to note
/// the server acknowledged, and how many losses sync reported, by kind.
struct SimulationCounts: Sendable {
    var moves = 0
    var losses: [SyncLoss.Kind: Int] = [:]

    init() {}

    init(devices: [SimulatedDevice]) {
        for device in devices {
            for push in device.network.deliveredPushes where push.response.outcome == .accepted {
                for transaction in push.request.transactions where transaction.id <= push.response.appliedThrough {
                    moves += transaction.changes.filter { change in
                        change.table == "tag" && change.kind == .update && change.columns.contains { $0.name == "noteid" }
                    }.count
                }
            }
            for loss in device.losses { losses[loss.kind, default: 0] += 1 }
        }
    }

    mutating func add(_ other: SimulationCounts) {
        moves += other.moves
        losses.merge(other.losses, uniquingKeysWith: +)
    }

    var description: String {
        let kinds = SyncLoss.Kind.allCases.map { "\($0.rawValue) \(losses[$0] ?? 0)" }.joined(separator: ", ")
        return "\(moves) acknowledged moves; losses reported: \(kinds)"
    }
}
