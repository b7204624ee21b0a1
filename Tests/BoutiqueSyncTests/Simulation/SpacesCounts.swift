import BoutiqueSync

/// What the spaces simulator's runs did, to show that the checks had something to check.
struct SpacesCounts: Sendable {
    var seeds = 0
    var steps = 0
    var writes = 0
    var shares = 0
    var roleChanges = 0
    var unshares = 0
    /// Membership changes attempted by users who may not make them, refused.
    var membershipRefusals = 0
    /// Membership calls whose answer the network lost.
    var membershipLost = 0
    /// Pushed transactions the server refused (each once, however often it was pushed).
    var refusals = 0
    /// Accepted changes that moved a row to another space, and rows carried along with them.
    var moves = 0
    var carried = 0
    /// Space events the devices received, by kind.
    var events: [SpaceEvent.Kind: Int] = [:]
    /// Rows waiting for a parent their user cannot see, on the devices at the end.
    var waiting = 0
    var crashes = 0
    var restores = 0
    /// Devices set up again with another spelling of their server's address.
    var addressChanges = 0
    /// Runs that served a while with rules that did not match the devices' tables, and the pushes
    /// the server did not place meanwhile.
    var mismatchedRuns = 0
    var unplacedPushes = 0

    mutating func add(_ other: SpacesCounts) {
        seeds += other.seeds
        steps += other.steps
        writes += other.writes
        shares += other.shares
        roleChanges += other.roleChanges
        unshares += other.unshares
        membershipRefusals += other.membershipRefusals
        membershipLost += other.membershipLost
        refusals += other.refusals
        moves += other.moves
        carried += other.carried
        events.merge(other.events, uniquingKeysWith: +)
        waiting += other.waiting
        crashes += other.crashes
        restores += other.restores
        addressChanges += other.addressChanges
        mismatchedRuns += other.mismatchedRuns
        unplacedPushes += other.unplacedPushes
    }

    var description: String {
        let kinds: [SpaceEvent.Kind] = [.joined, .left, .rowArrived, .rowLeft]
        let eventList = kinds.map { "\($0.rawValue) \(events[$0] ?? 0)" }.joined(separator: ", ")
        return "\(seeds) seeds, \(steps) steps, \(writes) writes; \(shares) shares, \(roleChanges) role changes, \(unshares) unshares, "
            + "\(membershipRefusals) membership changes refused, \(membershipLost) lost; \(refusals) transactions refused; "
            + "\(moves) moves, \(carried) rows carried; events: \(eventList); \(waiting) rows waiting at the end; "
            + "\(crashes) crashes, \(restores) restores, \(addressChanges) address respellings; \(mismatchedRuns) runs with mismatched rules for a while, "
            + "\(unplacedPushes) pushes not placed"
    }
}
