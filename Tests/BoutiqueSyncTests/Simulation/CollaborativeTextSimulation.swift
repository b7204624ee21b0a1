import BoutiqueSync
import BoutiqueSyncServer
import BoutiqueTestSupport
import Foundation

/// One seeded run of devices editing the collaborative bodies of a few notes over a faulty network:
/// offline spells, dropped requests and answers, duplicates, late deliveries, crashes. Every edit
/// inserts a token no other edit inserts between two tokens, or deletes a token its device shows, so
/// after healing the texts say exactly what merging kept. A token is three scalars of the private use
/// area that no other token has: the diff of a whole-string write then finds exactly the token
/// inserted or deleted (it cannot reuse characters of a neighbour), and a token split or interleaved
/// with another shows.
///
/// - every device shows what the server shows, byte for byte;
/// - each body is whole tokens one after the other (no run of characters was split or interleaved);
/// - a body holds exactly the tokens inserted into it and not deleted by someone: no acknowledged
///   insert is lost, no deleted token comes back.
///
/// Garbage collection runs now and then, and once more after healing: texts every device has passed
/// are compacted on the server while edits go on, and the checks above read the compacted states.
///
/// ```swift
/// let outcome = try await CollaborativeTextSimulation(seed: 7, deviceCount: 3, operations: 120).run()
/// ```
struct CollaborativeTextSimulation {
    let seed: UInt64
    let deviceCount: Int
    let operations: Int

    static let tenant = "text-sim"
    static let notes = ["n0", "n1", "n2"]

    /// What a run found, and how many texts garbage collection compacted on the way.
    struct Outcome: Sendable {
        var failures: [String]
        var compacted: Int
    }

    func run() async throws -> Outcome {
        let directory = try SyncTemporaryDirectory(inMemory: true)
        var random = SeededRandom(seed: seed)
        let time = VirtualTime()
        let identifiers = SeededIdentifiers(seed: seed)
        let server = SyncServer(
            store: try await SQLiteSyncStore.open(url: directory.file("server.db")),
            maximumClockSkewMilliseconds: SyncProtocol.defaultMaximumClockSkewMilliseconds, wallClock: { time.milliseconds })
        var devices: [SimulatedDevice] = []
        for index in 0..<deviceCount {
            let device = SimulatedDevice(
                name: "d\(index)", url: directory.file("device\(index).db"),
                network: SimulatedNetwork(server: server, tenant: Self.tenant, seed: seed &* 31 &+ UInt64(index)),
                skew: Int64(random.int(in: -3...3)) * 60_000, upgraded: false, pullLimit: random.int(in: 2...20), app: .collaborativeNotes)
            try await device.open(time: time, identifiers: identifiers)
            devices.append(device)
        }
        var inserted: [String: Set<String>] = [:]
        var deleted: Set<String> = []
        var failures: [String] = []
        var next = 0
        var compacted = 0

        for step in 0..<operations {
            time.advance(by: UInt64(random.int(in: 0...2_000)))
            let device = random.pick(devices)
            do {
                switch random.below(100) {
                case 0..<45:
                    guard let database = device.database else { break }
                    let note = random.pick(Self.notes)
                    let body = try await database.read { conn in
                        try conn.fetchOne("SELECT body FROM note WHERE id = ?", [.text(note)])?.values.first
                    }
                    var tokens: [String] = []
                    if case .text(let text)? = body { tokens = Self.tokens(of: text) ?? [] }
                    if !tokens.isEmpty, random.chance(35) {
                        deleted.insert(tokens.remove(at: random.below(tokens.count)))
                    }
                    // Sometimes a paste of two tokens at once, one run.
                    let token = Self.token(next) + (random.chance(20) ? Self.token(next + 1) : "")
                    next += 2
                    if random.chance(80) {
                        tokens.insert(token, at: random.below(tokens.count + 1))
                        inserted[note, default: []].formUnion(Self.tokens(of: token) ?? [])
                    }
                    let text = tokens.joined()
                    try await database.write { conn in
                        try conn.execute(
                            "INSERT INTO note(id, title, body) VALUES (?1, 'note', ?2) ON CONFLICT(id) DO UPDATE SET body = ?2",
                            [.text(note), .text(text)])
                    }
                case 45..<75:
                    _ = try? await device.sync?.synchronize()
                case 75..<80:
                    var faults = device.network.faults
                    faults.offline.toggle()
                    device.network.faults = faults
                case 80..<86:
                    device.network.faults = SimulatedNetwork.Faults(
                        offline: device.network.faults.offline, dropRequest: random.int(in: 0...20),
                        dropResponse: random.int(in: 0...25), duplicate: random.int(in: 0...20), delay: random.int(in: 0...20))
                case 86..<91:
                    await device.crash()
                    try await device.open(time: time, identifiers: identifiers)
                case 91..<96:
                    for device in devices {
                        for request in device.network.takeDelayed() { _ = try? await server.push(request, tenant: Self.tenant, user: SyncSimulation.user) }
                    }
                case 96..<98:
                    // Garbage collection: texts every device has passed are compacted on the server.
                    compacted += try await server.collectGarbage(tenant: Self.tenant).textsCompacted
                default:
                    time.advance(by: UInt64(random.int(in: 10_000...60_000)))
                }
            } catch {
                failures.append("step \(step) on \(device.name): \(error)")
            }
        }

        // Heal, then sync every device until a whole round moves nothing.
        for device in devices {
            device.network.faults = .none
            for request in device.network.takeDelayed() { _ = try? await server.push(request, tenant: Self.tenant, user: SyncSimulation.user) }
        }
        let quiet = try await syncUntilQuiet(devices, time: time) { device in
            guard let sync = device.sync else { return false }
            let report = try await sync.synchronize()
            return report.pushed > 0 || report.applied > 0
        }
        if !quiet { failures.append("still syncing after 10 rounds") }
        // Every device has passed everything: whatever was deleted goes.
        compacted += try await server.collectGarbage(tenant: Self.tenant).textsCompacted

        for note in Self.notes {
            let state = try await server.store.read(tenant: Self.tenant) { store in try store.rowState(table: "note", key: .text(note)) }
            let serverBody: DatabaseValue? = state.flatMap { $0.isVisible ? $0.visibleValues(textColumns: ["body"])["body"] : nil }
            for device in devices {
                guard let database = device.database else { continue }
                let body: DatabaseValue? = try await database.read { conn in
                    try conn.fetchOne("SELECT body FROM note WHERE id = ?", [.text(note)])?.values.first
                }
                if body != serverBody {
                    failures.append("\(device.name) shows \(note) as \(String(describing: body)), the server \(String(describing: serverBody))")
                }
            }
            guard let serverBody else {
                if inserted[note]?.isEmpty == false { failures.append("the server lost \(note)") }
                continue
            }
            guard case .text(let text) = serverBody, let tokens = Self.tokens(of: text) else {
                failures.append("\(note)'s body is not whole tokens: \(serverBody.description.unicodeScalars.map { String($0.value, radix: 16) })")
                continue
            }
            let expected = (inserted[note] ?? []).subtracting(deleted)
            if Set(tokens) != expected || tokens.count != expected.count {
                let names = { (tokens: [String]) in tokens.map(Self.number).sorted().map(String.init).joined(separator: " ") }
                failures.append("\(note) holds tokens \(names(tokens)), expected \(names(Array(expected)))")
            }
        }
        for device in devices { await device.crash() }
        return Outcome(failures: failures, compacted: compacted)
    }

    /// Token `number`: three scalars no other token has.
    static func token(_ number: Int) -> String {
        var view = String.UnicodeScalarView()
        for part in 0..<3 { view.append(Unicode.Scalar(0xF0000 + 3 * number + part)!) }
        return String(view)
    }

    static func number(_ token: String) -> Int { (Int(token.unicodeScalars.first!.value) - 0xF0000) / 3 }

    /// The tokens of a body, `nil` when it is not whole tokens one after the other.
    static func tokens(of body: String) -> [String]? {
        let scalars = Array(body.unicodeScalars)
        guard scalars.count % 3 == 0 else { return nil }
        var tokens: [String] = []
        for start in stride(from: 0, to: scalars.count, by: 3) {
            let first = Int(scalars[start].value) - 0xF0000
            guard first >= 0, first % 3 == 0 else { return nil }
            let token = token(first / 3)
            guard Array(token.unicodeScalars) == Array(scalars[start..<(start + 3)]) else { return nil }
            tokens.append(token)
        }
        return tokens
    }
}
