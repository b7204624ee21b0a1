import BoutiqueSQLite
import BoutiqueSync
import BoutiqueSyncServer
import BoutiqueTestSupport
import Synchronization

/// The simulation's network between one device and the server: drops requests, drops answers after
/// the server committed, duplicates requests, and holds some back to deliver them late (out of order).
final class SimulatedNetwork: SyncTransport {
    struct Faults: Sendable {
        var offline = false
        var dropRequest = 0
        var dropResponse = 0
        var duplicate = 0
        var delay = 0
        static let none = Faults()
    }

    struct Dropped: Error, CustomStringConvertible {
        let what: String
        var description: String { "simulated network: \(what)" }
    }

    /// What the network saw of each push the device got an answer to, for the checks.
    struct DeliveredPush: Sendable {
        let request: PushRequest
        let response: PushResponse
    }

    private struct State {
        var random: SeededRandom
        var faults = Faults.none
        var delayed: [PushRequest] = []
        var delivered: [DeliveredPush] = []
        var events: [SpaceEvent.Kind: Int] = [:]
        var snapshotCells: Set<String> = []
        var placed: Set<SyncStamp> = []
        var address: String
        var snapshotRequests = 0
        var parts = 0
    }

    /// The server's logic (a ``RestartableServer`` where a run starts it again with other rules).
    let server: any SyncEndpoint
    let tenant: String
    /// The user the device's requests are made as (from its token, on a real server).
    let user: String
    /// The server's attachment requests, for a run with attachments (``AttachmentSimulation``).
    let attachments: AttachmentRequests?
    private let state: Lock<State>

    init(
        server: any SyncEndpoint, tenant: String, seed: UInt64, user: String = SyncSimulation.user, attachments: AttachmentRequests? = nil
    ) {
        self.server = server
        self.tenant = tenant
        self.user = user
        self.attachments = attachments
        self.state = Lock(State(random: SeededRandom(seed: seed), address: Self.spellings(of: tenant)[0]))
    }

    /// The address the device reaches its server at, as the app spells it.
    var serverIdentifier: String { state.withLock { $0.address } }

    /// Ways an app may spell the address of the run's one server: another host name for it, a port
    /// said or not, a trailing slash. Sync keys its progress by the server's identity, not by these.
    static func spellings(of tenant: String) -> [String] {
        ["simulated:\(tenant)", "simulated:\(tenant)/", "simulated://\(tenant).example:443", "simulated://SYNC.\(tenant).example/",
         "simulated://\(tenant).example:8443/api"]
    }

    /// Spells the address another way (the device is set up again with it).
    func respell(_ address: String) { state.withLock { $0.address = address } }

    /// How many snapshot pages of the whole state the device asked for (each bootstrap asks at least
    /// one); pages of one space, for a space joined, are not counted.
    var snapshotRequests: Int { state.withLock { $0.snapshotRequests } }

    /// How many parts of transactions too large for one push reached the server.
    var transactionParts: Int { state.withLock { $0.parts } }

    var faults: Faults {
        get { state.withLock { $0.faults } }
        set { state.withLock { $0.faults = newValue } }
    }

    /// Held-back pushes, taken out.
    func takeDelayed() -> [PushRequest] { state.withLock { state in defer { state.delayed.removeAll() }; return state.delayed } }

    /// Pushes whose answer reached the device.
    var deliveredPushes: [DeliveredPush] { state.withLock { $0.delivered } }

    /// The space events of the pull answers that reached the device, by kind.
    var deliveredEvents: [SpaceEvent.Kind: Int] { state.withLock { $0.events } }

    private func roll(_ percent: KeyPath<Faults, Int>) -> Bool {
        state.withLock { state in state.random.chance(state.faults[keyPath: percent]) }
    }

    func send<Response: Sendable>(
        _ name: String, delaying: (() -> Void)? = nil, _ call: () async throws -> Response
    ) async throws -> Response {
        if faults.offline { throw Dropped(what: "offline") }
        if roll(\.dropRequest) { throw Dropped(what: "\(name) request lost") }
        if let delaying, roll(\.delay) { delaying() }
        var response = try await call()
        if roll(\.duplicate) { response = try await call() }
        if roll(\.dropResponse) { throw Dropped(what: "\(name) answer lost after the server committed") }
        return response
    }

    func push(_ request: PushRequest) async throws -> PushResponse {
        let response = try await send("push", delaying: { self.state.withLock { $0.delayed.append(request) } }) {
            try await server.push(request, tenant: tenant, user: user)
        }
        if SimulationTrace.isOn, let refusals = response.refusals, !refusals.isEmpty {
            print("REFUSED \(request.replica): \(refusals.map { "\($0.transactionID) \($0.table) \($0.key) \($0.reason): \($0.message)" })")
        }
        state.withLock { state in
            if request.part != nil { state.parts += 1 }
            state.delivered.append(DeliveredPush(request: request, response: response))
            for logged in response.logged ?? [] { state.placed.insert(logged.stamp) }
        }
        return response
    }

    // Pulls and snapshots go as the device's user: a server without rules shows every user everything,
    // one with rules only the user's spaces.
    func pull(_ request: PullRequest) async throws -> PullResponse {
        let response = try await send("pull") { try await server.pull(request, tenant: tenant, user: user) }
        state.withLock { state in
            for event in response.events ?? [] { state.events[event.kind, default: 0] += 1 }
            for own in response.ownTransactions ?? [] { state.placed.insert(own.stamp) }
            for change in response.changes { state.placed.insert(change.change.stamp) }
        }
        return response
    }

    func snapshot(_ request: SnapshotRequest) async throws -> SnapshotResponse {
        let response = try await send("snapshot") { try await server.snapshot(request, tenant: tenant, user: user) }
        state.withLock { state in
            // A page of one space (a space joined) is no download of the whole state again.
            if request.space == nil { state.snapshotRequests += 1 }
            for row in response.rows {
                for (name, cell) in row.state.cells { state.snapshotCells.insert(Self.cell(row.table, row.key, name, cell.stamp)) }
            }
        }
        return response
    }

    /// Whether an answer told the device where its write `stamp` is in the log (or that it is in none).
    func placed(_ stamp: SyncStamp) -> Bool { state.withLock { $0.placed.contains(stamp) } }

    /// Whether the device got the write `stamp` of the column `name` in a snapshot's row state, which
    /// says nothing of what its writer had pulled.
    func gotInSnapshot(_ table: String, _ key: DatabaseValue, _ name: String, _ stamp: SyncStamp) -> Bool {
        state.withLock { $0.snapshotCells.contains(Self.cell(table, key, name, stamp)) }
    }

    private static func cell(_ table: String, _ key: DatabaseValue, _ name: String, _ stamp: SyncStamp) -> String {
        "\(table)|\(key)|\(name)|\(stamp)"
    }

    /// Share, unshare and members go through the same faults: an answer lost after the server
    /// committed leaves the caller not knowing whether the members changed.
    func membership(_ request: MembershipRequest, action: MembershipAction) async throws -> MembershipResponse {
        try await send(action.rawValue) { try await server.membership(request, action: action, tenant: tenant, user: user) }
    }
}

/// Time in the simulation: one clock everybody reads, moved by the simulator.
final class VirtualTime: Sendable {
    private let now = Atomic<UInt64>(1_800_000_000_000)

    var milliseconds: UInt64 { now.load(ordering: .relaxed) }

    func advance(by milliseconds: UInt64) { now.add(milliseconds, ordering: .relaxed) }
}

/// Seeded ids, so that a run's replica and writer ids (which break ties) replay exactly.
final class SeededIdentifiers: Sendable {
    private let state: Lock<SeededRandom>

    init(seed: UInt64) { state = Lock(SeededRandom(seed: seed ^ 0x1D5)) }

    func next() -> String {
        let value = state.withLock { $0.next() }
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
