import BoutiqueSync
import BoutiqueSyncServer
import BoutiqueTestSupport
import Foundation

/// One seeded run of sharing between users: a server with the reminders rules (lists are spaces,
/// reminders follow their list, tag links their reminder, tags are private), two or three users with
/// one or two devices each. Users write what their devices show, move reminders and links, share,
/// change roles and unshare their lists, and try what they may not; the network drops, duplicates and
/// delays, devices crash, are restored from backups, and their clocks skew. In some runs the server
/// is started again, for a stretch of steps, with rules whose follower column the devices' tables lack:
/// it places no pushed row then (nothing is logged; devices keep their changes and keep pulling), and
/// is started again with the right rules before the end. ``SpacesStepCheck`` runs after every step;
/// once the network heals and every device synced, ``SpacesConvergence``.
///
/// ```swift
/// let result = try await SpacesSimulation(seed: 7, steps: 60).run()
/// result.failures   // empty when every check passed
/// ```
struct SpacesSimulation {
    let seed: UInt64
    let steps: Int

    static let tenant = "spaces"
    static let allUsers = ["ana", "bob", "cleo"]

    struct Result: Sendable {
        var failures: [String]
        var counts: SpacesCounts
    }

    func run() async throws -> Result {
        let trace = SimulationTrace.isOn
        let directory = try SyncTemporaryDirectory(inMemory: true)
        var random = SeededRandom(seed: seed)
        let time = VirtualTime()
        let identifiers = SeededIdentifiers(seed: seed)
        let store = try await SQLiteSyncStore.open(url: directory.file("server.db"))
        func started(rules: SyncRules) -> SyncServer {
            SyncServer(
                store: store, rules: rules, maximumClockSkewMilliseconds: SyncProtocol.defaultMaximumClockSkewMilliseconds,
                wallClock: { time.milliseconds })
        }
        let server = started(rules: try SpacesSchema.rules())
        let endpoint = RestartableServer(server)
        // The stretch of steps served with rules that do not match, drawn apart from the run's other
        // choices so that a seed's run is otherwise what it was.
        var stretchRandom = SeededRandom(seed: seed &* 7_919 &+ 13)
        let mismatched: Range<Int>? = stretchRandom.chance(30)
            ? { let start = stretchRandom.int(in: 0...max(0, steps - 2)); return start..<min(steps, start + stretchRandom.int(in: 3...20)) }()
            : nil
        var loggedBeforeMismatch: Int64?
        let users = Array(Self.allUsers.prefix(random.chance(50) ? 2 : 3))
        let prefixes = users.map { String($0.prefix(1)) }
        let listKeys = SpacesWrites.listKeys(prefixes: prefixes)
        let view = SpacesServerView(server: server, tenant: Self.tenant, users: users, listKeys: listKeys)

        var devices: [SimulatedDevice] = []
        var owners = users
        for _ in 0..<random.int(in: 1...2) where owners.count < 5 { owners.append(random.pick(users)) }
        for user in owners {
            let index = devices.count
            let device = SimulatedDevice(
                name: "d\(index)", url: directory.file("device\(index).db"),
                network: SimulatedNetwork(server: endpoint, tenant: Self.tenant, seed: seed &* 31 &+ UInt64(index), user: user),
                skew: Int64(random.int(in: -2...2)) * 60_000, upgraded: false, pullLimit: random.int(in: 2...30), app: .reminders)
            try await device.open(time: time, identifiers: identifiers)
            devices.append(device)
        }

        var failures: [String] = []
        var counts = SpacesCounts()
        counts.seeds = 1
        var deliberate: [String: Set<SimulatedRow>] = [:]
        var restoredAt: [String: Int] = [:]
        var pushSteps: [String: [Int]] = [:]
        var rolesBefore = try await view.roles()

        /// After each step: who made which ids, at which step each answered push came, then the checks.
        func afterStep(_ step: Int) async throws {
            for device in devices {
                for id in device.madeIdentifiers.withLock({ $0 }) { view.makers[id] = (device.name, device.network.user) }
                let delivered = device.network.deliveredPushes.count
                while pushSteps[device.name, default: []].count < delivered { pushSteps[device.name, default: []].append(step) }
            }
            let check = SpacesStepCheck(view: view, rolesBefore: rolesBefore, deliberate: deliberate)
            for failure in try await check.run(devices: devices) { failures.append("step \(step): \(failure)") }
            rolesBefore = try await view.roles()
        }

        /// Starts the server again with rules that do not match, or with the right ones after them:
        /// while they do not match, nothing of any push may be logged.
        func restart(mismatching: Bool, at step: Int) async throws {
            let latest = try await store.read(tenant: Self.tenant) { try $0.latestSequence() }
            if mismatching {
                endpoint.restart(started(rules: try RulesMismatchTests.rules(RulesMismatchTests.wrongColumn)))
                loggedBeforeMismatch = latest
                counts.mismatchedRuns += 1
            } else {
                endpoint.restart(started(rules: try SpacesSchema.rules()))
                if let before = loggedBeforeMismatch {
                    let logged = try await store.read(tenant: Self.tenant) { try $0.changes(after: before, limit: 10) }
                    if !logged.isEmpty { failures.append("step \(step): rules that do not match placed \(logged.map(\.entry.change))") }
                }
                loggedBeforeMismatch = nil
            }
        }

        for step in 0..<steps {
            if step == mismatched?.lowerBound { try await restart(mismatching: true, at: step) }
            if step == mismatched?.upperBound { try await restart(mismatching: false, at: step) }
            time.advance(by: random.chance(30) ? 0 : UInt64(random.int(in: 1...3_000)))
            let device = random.pick(devices)
            let roll = random.below(100)
            if trace { print("step \(step) \(device.name) (\(device.network.user)) roll \(roll) t=\(time.milliseconds)") }
            do {
                switch roll {
                case 0..<38:
                    let deleted = try await SpacesWrites.random(
                        on: device, user: device.network.user, prefixes: prefixes, step: step, random: &random)
                    deliberate[device.name, default: []].formUnion(deleted)
                    counts.writes += 1
                case 38..<60:
                    let report = try await synchronize(device, failures: &failures, unplacedAllowed: loggedBeforeMismatch != nil)
                    if trace { print("SYNC \(device.name) pushed \(report.pushed) applied \(report.applied) cursor \(device.lastCursor)") }
                case 60..<70:
                    switch try await SpacesSharing.byOwner(on: device, view: view, random: &random, failures: &failures) {
                    case .shared: counts.shares += 1
                    case .roleChanged: counts.roleChanges += 1
                    case .unshared: counts.unshares += 1
                    case .lost: counts.membershipLost += 1
                    case .refused, .none: break
                    }
                case 70..<73:
                    switch try await SpacesSharing.byNonOwner(on: device, view: view, listKeys: listKeys, random: &random, failures: &failures) {
                    case .refused: counts.membershipRefusals += 1
                    case .lost: counts.membershipLost += 1
                    default: break
                    }
                case 73..<75:
                    var faults = device.network.faults
                    faults.offline.toggle()
                    device.network.faults = faults
                case 75..<78:
                    device.network.faults = SimulatedNetwork.Faults(
                        offline: device.network.faults.offline, dropRequest: random.int(in: 0...20),
                        dropResponse: random.int(in: 0...25), duplicate: random.int(in: 0...20), delay: random.int(in: 0...20))
                case 78..<79:
                    await device.crash()
                    try await device.open(time: time, identifiers: identifiers)
                    counts.crashes += 1
                case 79..<81:
                    let target = directory.file("\(device.name)-backup-\(step).db")
                    try await device.copy(to: target)
                    device.backup = (target, false)
                case 81..<83:
                    if device.backup != nil {
                        device.snapshotsBeforeRespelling = nil
                        try await device.restore(time: time, identifiers: identifiers)
                        restoredAt[device.name] = step
                        counts.restores += 1
                    }
                case 83..<85:
                    let current = device.skew.value.load(ordering: .relaxed)
                    let next = random.chance(50) ? current - Int64(random.int(in: 1...3)) * 60_000 : Int64(random.int(in: -3...3)) * 60_000
                    device.skew.value.store(max(-4 * 60_000, min(4 * 60_000, next)), ordering: .relaxed)
                case 85..<89:
                    for device in devices {
                        for request in device.network.takeDelayed() {
                            _ = try? await endpoint.push(request, tenant: Self.tenant, user: device.network.user)
                        }
                    }
                case 89:
                    try await ServerAddressChanges.respell(device, random: &random, time: time, identifiers: identifiers)
                    counts.addressChanges += 1
                default:
                    time.advance(by: UInt64(random.int(in: 10_000...120_000)))
                }
            } catch {
                failures.append("step \(step) on \(device.name) (roll \(roll)): \(error)")
            }
            try await afterStep(step)
            counts.steps += 1
            if failures.count > 5 { break }
        }

        // Heal: the rules are right again, the network works, late pushes arrive, every device syncs
        // until a round moves nothing.
        if loggedBeforeMismatch != nil { try await restart(mismatching: false, at: steps) }
        for device in devices {
            device.network.faults = .none
            for request in device.network.takeDelayed() { _ = try? await endpoint.push(request, tenant: Self.tenant, user: device.network.user) }
        }
        let quiet = try await syncUntilQuiet(devices, time: time) { device in
            let report = try await synchronize(device, failures: &failures, mustSucceed: true)
            if trace { print("HEAL \(device.name) pushed \(report.pushed) applied \(report.applied) cursor \(device.lastCursor)") }
            return report.pushed > 0 || report.applied > 0
        }
        if !quiet { failures.append("still syncing after 10 rounds of syncing every device") }
        try await afterStep(steps)
        failures += try await SpacesConvergence.check(devices: devices, view: view, restoredAfter: restoredAt, refusalSteps: pushSteps)

        for device in devices {
            var refused: Set<String> = []
            for push in device.network.deliveredPushes where push.response.outcome == .accepted {
                for refusal in push.response.refusals ?? [] { refused.insert("\(push.request.replica)#\(refusal.transactionID)") }
            }
            counts.refusals += refused.count
            counts.unplacedPushes += device.network.deliveredPushes.count { $0.response.refusal == .rulesMismatch }
            counts.events.merge(device.network.deliveredEvents, uniquingKeysWith: +)
            if let database = device.database {
                let waiting = try await database.read { conn in try conn.fetchValue("SELECT count(*) FROM boutique_sync_waiting") }
                if case .integer(let count)? = waiting { counts.waiting += Int(count) }
            }
        }
        for entry in view.log where entry.movedFrom != nil {
            if entry.entry.change.columns.isEmpty { counts.carried += 1 } else { counts.moves += 1 }
        }
        if trace {
            for entry in view.log {
                let maker = view.makers[entry.origin].map { "\($0.device) (\($0.user))" } ?? entry.origin
                print("LOG \(entry.entry.sequence) batch \(entry.batch) by \(maker): \(entry.entry.change.kind) \(entry.entry.change.table) \(entry.entry.change.key) "
                    + "\(entry.entry.change.columns.map { "\($0.name)=\($0.value)" }) in \(entry.space.rawValue) from \(entry.movedFrom?.rawValue ?? "-")")
            }
        }
        for device in devices { await device.crash() }
        return Result(failures: failures, counts: counts)
    }

    @discardableResult
    private func synchronize(
        _ device: SimulatedDevice, failures: inout [String], mustSucceed: Bool = false, unplacedAllowed: Bool = false
    ) async throws -> SyncReport {
        guard let sync = device.sync else { return SyncReport() }
        let outcome: Swift.Result<SyncReport, any Error>
        do {
            outcome = .success(try await sync.synchronize())
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success(let report):
            let cursor = try await device.cursor()
            if cursor < device.lastCursor { failures.append("\(device.name)'s cursor went back from \(device.lastCursor) to \(cursor)") }
            device.lastCursor = cursor
            // A restored file takes a new replica id when it learns another copy pushed under its own.
            let replica = await sync.replicaID
            let replicaChanged = device.replica.map { $0 != replica } ?? false
            device.replica = replica
            ServerAddressChanges.check(device, report: report, replicaChanged: replicaChanged, failures: &failures)
            return report
        case .failure(let error):
            if case BoutiqueError.syncUnavailable = error, !mustSucceed { return SyncReport() }
            // Rules that do not match: the push waits, and the pull went on (the step check sees
            // what the device holds).
            if (error as? SyncRefusal)?.reason == .rulesMismatch, !mustSucceed, unplacedAllowed { return SyncReport() }
            failures.append("\(device.name) synchronize: \(error)")
            return SyncReport()
        }
    }
}
