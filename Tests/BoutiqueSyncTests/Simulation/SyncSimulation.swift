import BoutiqueSync
import BoutiqueSyncServer
import BoutiqueTestSupport
import Foundation

/// One seeded run: devices write, sync over a faulty network, crash, are restored from backups,
/// cloned, upgraded, and have their clocks skewed; then the network heals and everything must agree.
///
/// ```swift
/// let result = try await SyncSimulation(seed: 7, devices: 4, operations: 150).run()
/// result.failures   // empty when the run converged
/// ```
struct SyncSimulation {
    let seed: UInt64
    let deviceCount: Int
    let operations: Int

    static let tenant = "sim"
    /// The user every device pushes as: the server's rule refuses some of its transactions.
    static let user = "sim-user"

    /// The server's rule: nobody may set a note's rank to 4 by an update (inserts may). About one
    /// transaction in twenty is refused, undone on its device, and reported.
    static let authorize: SyncAuthorizer = { _, change in
        !(change.table == "note" && change.kind == .update && change.columns.contains { $0.name == "rank" && $0.value == .integer(4) })
    }
    /// Prints each step when `BOUTIQUE_SYNC_TRACE` is set, to follow a failing seed (and with
    /// `BOUTIQUE_SYNC_WATCH=<key>`, that note's row and state on every device after each step).
    let trace = SimulationTrace.isOn

    /// What a run found: its problems (none when it converged), and what it counts.
    struct Result: Sendable {
        var failures: [String]
        var counts: SimulationCounts
    }

    /// Runs the simulation.
    func run() async throws -> Result {
        let directory = try SyncTemporaryDirectory(inMemory: true)
        var random = SeededRandom(seed: seed)
        let time = VirtualTime()
        let identifiers = SeededIdentifiers(seed: seed)
        let server = SyncServer(
            store: try await SQLiteSyncStore.open(url: directory.file("server.db")), authorize: Self.authorize,
            maximumClockSkewMilliseconds: SyncProtocol.defaultMaximumClockSkewMilliseconds, wallClock: { time.milliseconds })
        var failures: [String] = []
        var devices: [SimulatedDevice] = []
        var otherProcessWrites = 0
        var addressChanges = 0
        var otherStores = 0
        func addDevice(upgraded: Bool) -> SimulatedDevice {
            let index = devices.count
            let device = SimulatedDevice(
                name: "d\(index)", url: directory.file("device\(index).db"),
                network: SimulatedNetwork(server: server, tenant: Self.tenant, seed: seed &* 31 &+ UInt64(index)),
                skew: Int64(random.int(in: -3...3)) * 60_000, upgraded: upgraded, pullLimit: random.int(in: 3...40))
            devices.append(device)
            return device
        }
        for _ in 0..<deviceCount {
            try await addDevice(upgraded: false).open(time: time, identifiers: identifiers)
        }
        let upgradeAfter = operations / 3

        for step in 0..<operations {
            time.advance(by: random.chance(30) ? 0 : UInt64(random.int(in: 1...3_000)))
            let device = random.pick(devices)
            let roll = random.below(100)
            if trace { print("step \(step) \(device.name) roll \(roll) t=\(time.milliseconds)") }
            do {
                switch roll {
                case 0..<6:
                    try await LocalWrites.fromAnotherProcess(
                        on: device, step: step, random: &random, time: time, identifiers: identifiers)
                    otherProcessWrites += 1
                case 6..<45:
                    try await LocalWrites.random(on: device, step: step, random: &random)
                case 45..<68:
                    try await synchronize(device, failures: &failures)
                case 68..<72:
                    var faults = device.network.faults
                    faults.offline.toggle()
                    device.network.faults = faults
                case 72..<77:
                    device.network.faults = SimulatedNetwork.Faults(
                        offline: device.network.faults.offline, dropRequest: random.int(in: 0...20),
                        dropResponse: random.int(in: 0...25), duplicate: random.int(in: 0...20), delay: random.int(in: 0...20))
                case 77..<80:
                    await device.crash()
                    try await device.open(time: time, identifiers: identifiers)
                case 80..<83:
                    let target = directory.file("\(device.name)-backup-\(step).db")
                    try await device.copy(to: target)
                    device.backup = (target, device.isUpgraded)
                case 83..<85:
                    if device.backup != nil {
                        device.mayChangeReplica = true
                        device.snapshotsBeforeRespelling = nil
                        try await device.restore(time: time, identifiers: identifiers)
                    }
                case 85..<86:
                    guard devices.count < 5 else { break }
                    let clone = addDevice(upgraded: device.isUpgraded)
                    device.mayChangeReplica = true
                    clone.mayChangeReplica = true
                    // Whichever of the two first learns that the other pushed under their shared id takes a new one.
                    device.mayChangeReplica = true
                    try await device.copy(to: clone.url)
                    clone.lastCursor = device.lastCursor
                    clone.origin = device
                    try await clone.open(time: time, identifiers: identifiers)
                case 86..<89:
                    // Clocks skew by minutes, and jump back.
                    let current = device.skew.value.load(ordering: .relaxed)
                    let next = random.chance(50) ? current - Int64(random.int(in: 1...4)) * 60_000 : Int64(random.int(in: -4...4)) * 60_000
                    device.skew.value.store(max(-5 * 60_000, min(5 * 60_000, next)), ordering: .relaxed)
                case 89..<94:
                    for device in devices {
                        for request in device.network.takeDelayed() { _ = try? await server.push(request, tenant: Self.tenant, user: Self.user) }
                    }
                case 94..<96:
                    if step >= upgradeAfter, !device.isUpgraded, random.chance(60) {
                        await device.crash()
                        device.isUpgraded = true
                        try await device.open(time: time, identifiers: identifiers)
                    }
                case 96:
                    try await ServerAddressChanges.respell(device, random: &random, time: time, identifiers: identifiers)
                    addressChanges += 1
                case 97 where random.chance(40):
                    try await ServerAddressChanges.visitAnotherStore(
                        device, time: time, identifiers: identifiers, directory: directory, step: step, failures: &failures)
                    otherStores += 1
                default:
                    time.advance(by: UInt64(random.int(in: 10_000...120_000)))
                }
            } catch {
                failures.append("step \(step) on \(device.name) (roll \(roll)): \(error)")
            }
            if trace, let watched = SimulationTrace.watchedKey {
                for device in devices {
                    guard let database = device.database else { continue }
                    let present = try await database.read { conn in try conn.fetchValue("SELECT title FROM note WHERE id = ?", [.text(watched)]) }
                    let state = try await database.read { conn in try conn.fetchValue("SELECT state FROM boutique_sync_row WHERE tbl = 'note' AND key = ?", [.text(watched)]) }
                    var visible = "none"
                    if case .blob(let bytes)? = state { visible = "\(try RowRegister(record: bytes).isVisible)" }
                    print("WATCH step \(step) \(device.name) row=\(present.map { "\($0)" } ?? "absent") stateVisible=\(visible)")
                }
            }
            if failures.count > 5 { break }
        }

        // Heal: the network works, late pushes arrive, every device runs the new app version.
        for device in devices {
            device.network.faults = .none
            for request in device.network.takeDelayed() { _ = try? await server.push(request, tenant: Self.tenant, user: Self.user) }
            if !device.isUpgraded {
                await device.crash()
                device.isUpgraded = true
                try await device.open(time: time, identifiers: identifiers)
            }
        }
        // Rounds until one round moves nothing.
        let quiet = try await syncUntilQuiet(devices, time: time) { device in
            let report = try await synchronize(device, failures: &failures, mustSucceed: true)
            if trace { print("HEAL \(device.name) pushed \(report.pushed) applied \(report.applied) cursor \(device.lastCursor)") }
            // Pulled changes can give a device work of its own (a child whose parent went is
            // deleted as a local change), pushed on its next sync.
            return report.pushed > 0 || report.applied > 0
        }
        if !quiet { failures.append("still pushing after 10 rounds of syncing every device") }
        for device in devices { _ = try await synchronize(device, failures: &failures, mustSucceed: true) }
        for device in devices { await device.collectLosses() }
        var concurrentLosses = ConcurrentEditCheck.Tally()
        failures += try await ConvergenceCheck.check(
            devices: devices, server: server, tenant: Self.tenant, concurrentLosses: &concurrentLosses)
        var counts = SimulationCounts(devices: devices)
        counts.concurrentLosses = concurrentLosses
        counts.otherProcessWrites = otherProcessWrites
        counts.addressChanges = addressChanges
        counts.otherStores = otherStores
        for device in devices { await device.crash() }
        return Result(failures: failures, counts: counts)
    }

    @discardableResult
    private func synchronize(_ device: SimulatedDevice, failures: inout [String], mustSucceed: Bool = false) async throws -> SyncReport {
        guard let sync = device.sync else { return SyncReport() }
        let report: SyncReport
        do {
            report = try await sync.synchronize()
        } catch let error as BoutiqueError {
            if case .syncUnavailable = error, !mustSucceed { return SyncReport() }
            failures.append("\(device.name) synchronize: \(error)")
            return SyncReport()
        }
        let cursor = try await device.cursor()
        if cursor < device.lastCursor { failures.append("\(device.name)'s cursor went back from \(device.lastCursor) to \(cursor)") }
        device.lastCursor = cursor
        // A replica id changes only for a file that was restored or copied: the server's watermark
        // and digest recognise everything else as the same history.
        let replica = await sync.replicaID
        if let previous = device.replica, previous != replica, !device.mayChangeReplica {
            failures.append("\(device.name) took a new replica id without being restored or copied")
        }
        let replicaChanged = device.replica.map { $0 != replica } ?? false
        device.replica = replica
        ServerAddressChanges.check(device, report: report, replicaChanged: replicaChanged, failures: &failures)
        return report
    }
}
