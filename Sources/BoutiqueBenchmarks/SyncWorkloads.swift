import BoutiqueDB
import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Synchronization

/// What sync costs, each figure a ratio to the same work without sync:
///
/// - a one-row write with sync on (its clock stamp written in the transaction) against the same write
///   with sync off, the full change log in both, on a new file and on files of 10,000 and 100,000
///   earlier transactions (with sync on, all waiting to be pushed), with the CPU time of each; and the
///   same statements per commit through the C API, the floor for that ratio (``SyncCommitFloor``);
/// - applying a pull of 10,000 remote changes against committing the same 10,000 rows locally in one
///   transaction;
/// - pushing 10,000 local changes through the in-process transport (the server applying them included)
///   against reading them back from the change log.
///
///     swift run -c release boutique-benchmarks --sync
///
/// Variants run round-robin after a warm-up round, each round on fresh files (set-up not timed), and
/// the medians are compared.
enum SyncWorkloads {
    static let smallWrites = 2_000
    static let rows = 10_000

    static let schema = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_notes") { conn in
            try conn.execute("CREATE TABLE note(id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, body TEXT, rank INTEGER)")
        }
    }

    struct Line {
        let name: String
        let run: () async throws -> Timing
    }

    /// What one run of a workload took: wall-clock seconds, and the CPU seconds of the whole process
    /// meanwhile (its background tasks included), which a busy machine disturbs less.
    struct Timing: CustomStringConvertible {
        var wall: Double
        var cpu: Double

        var description: String { String(format: "%.4f s (CPU %.4f s)", wall, cpu) }
    }

    static func run(rounds: Int) async throws {
        // Files holding 10,000 and 100,000 local transactions not yet pushed (an app offline for a
        // while), made once and copied for each round; and files of the same transactions without sync,
        // so that a larger file's own cost is not counted as the pending transactions'.
        var templates: [Int: (off: URL, on: URL)] = [:]
        for count in [10_000, 100_000] {
            templates[count] = (try await pendingTemplate(transactions: count, sync: false), try await pendingTemplate(transactions: count))
        }
        defer {
            for (off, on) in templates.values {
                remove(off)
                remove(on)
            }
        }
        let lines = [
            Line(name: "sync off") { try await smallWritesOnce(sync: false) },
            Line(name: "stamps only, no sync object") { try await smallWritesOnce(sync: true, keepingSync: false) },
            Line(name: "sync on") { try await smallWritesOnce(sync: true) },
        ] + [(10_000, "10,000"), (100_000, "100,000")].flatMap { count, label in
            let files = templates[count]!
            return [
                Line(name: "sync off, \(label) earlier") { try await smallWritesOnce(sync: false, from: files.off) },
                Line(name: "sync on, \(label) pending") { try await smallWritesOnce(sync: true, from: files.on) },
            ]
        }
        let medians = try await measure("\(smallWrites) awaited one-row writes, full change log", rounds: rounds, lines)
        print("  sync on ÷ sync off on a file of the same transactions (wall, CPU):")
        for (pending, off, on) in [(0, 0, 2), (10_000, 3, 4), (100_000, 5, 6)] {
            print(String(
                format: "    %7d pending  %.3f×  CPU %.3f×", pending, medians.wall[on] / medians.wall[off],
                medians.cpu[on] / medians.cpu[off]))
        }
        try await measure("floor: \(smallWrites) one-row writes through the C API, the same statements per commit", rounds: rounds,
            SyncCommitFloor.Stamping.allCases.map { stamping in
                Line(name: stamping.name) { try SyncCommitFloor.writesOnce(stamping, count: smallWrites) }
            })
        try await measure("\(rows) rows: applied from a pull vs committed locally", rounds: rounds, [
            Line(name: "local commit, one transaction") { try await localCommitOnce() },
            Line(name: "pull applied (answer in hand)") { try await pullOnce(fetching: false) },
            Line(name: "  pull incl. the server's query") { try await pullOnce(fetching: true) },
        ])
        try await measure("\(rows) local changes: pushed vs read from the change log", rounds: rounds, [
            Line(name: "read from the change log") { try await readLogOnce() },
            Line(name: "pushed, in-process transport") { try await pushOnce(merging: false) },
            Line(name: "  pushed and merged by the server") { try await pushOnce(merging: true) },
        ])
    }

    /// Runs `lines` round-robin and prints their medians; returns the medians, wall-clock and CPU.
    @discardableResult
    static func measure(_ title: String, rounds: Int, _ lines: [Line]) async throws -> (wall: [Double], cpu: [Double]) {
        var samples = Array(repeating: [Double](), count: lines.count)
        var cpu = Array(repeating: [Double](), count: lines.count)
        for round in 0...rounds {
            for (index, line) in lines.enumerated() {
                let timing = try await line.run()
                if round > 0 {
                    samples[index].append(timing.wall)
                    cpu[index].append(timing.cpu)
                }
            }
        }
        print("\n\(title) — median of \(rounds) rounds (min … max), ratio to \(lines[0].name); then CPU time")
        let baseline = BenchmarkStatistics.median(samples[0])
        let cpuBaseline = BenchmarkStatistics.median(cpu[0])
        for (index, line) in lines.enumerated() {
            BenchmarkStatistics.printLine(
                line.name, median: BenchmarkStatistics.median(samples[index]), min: samples[index].min() ?? .nan,
                max: samples[index].max() ?? .nan, baseline: baseline)
            let cpuMedian = BenchmarkStatistics.median(cpu[index])
            print("    CPU " + String(format: "%8.2f ms  %.3f×", cpuMedian * 1000, cpuMedian / cpuBaseline))
        }
        return (samples.map(BenchmarkStatistics.median), cpu.map(BenchmarkStatistics.median))
    }

    static func path(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("boutique-sync-bench-\(name)-\(UUID().uuidString).db")
    }

    static func remove(_ url: URL) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }

    static func server() async throws -> SyncServer {
        SyncServer(store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()))
    }

    static func elapsed(_ body: () async throws -> Void) async rethrows -> Timing {
        let start = DispatchTime.now().uptimeNanoseconds
        let cpuStart = CDCWorkloads.processCPUTime()
        try await body()
        return Timing(
            wall: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, cpu: CDCWorkloads.processCPUTime() - cpuStart)
    }

    static func insertRows(_ count: Int, into database: DatabaseActor, prefix: String) async throws {
        try await database.write { conn in
            for row in 0..<count {
                try conn.execute(
                    "INSERT INTO note(id, title, body, rank) VALUES (?, ?, ?, ?)",
                    [.text("\(prefix)-\(row)"), .text("title \(row)"), .text("body of note \(row)"), .integer(Int64(row))])
            }
        }
    }

    /// A closed file with `transactions` one-row local transactions: with `sync`, set up for sync with
    /// the transactions waiting to be pushed.
    static func pendingTemplate(transactions: Int, sync: Bool = true) async throws -> URL {
        let url = path("pending-\(transactions)")
        let database = try await DatabaseActor.open(url: url, migrations: schema)
        let engine = sync ? try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(try await server())) : nil
        for row in 0..<transactions {
            try await database.write { conn in
                try conn.execute("INSERT INTO note(id, title) VALUES (?, ?)", [.text("pending-\(row)"), .text("t")])
            }
        }
        _ = engine
        await database.close()
        return url
    }

    /// `smallWrites` awaited one-row write transactions, on a new file or on a copy of `template`.
    ///
    /// `keepingSync: false` sets the file up for sync and lets the sync object go before the writes:
    /// what is left is the stamp BoutiqueDB writes in each transaction, without the pending count that
    /// a live sync object keeps.
    static func smallWritesOnce(sync: Bool, keepingSync: Bool = true, from template: URL? = nil) async throws -> Timing {
        let url = path("writes")
        defer { remove(url) }
        if let template { try FileManager.default.copyItem(at: template, to: url) }
        let database = try await DatabaseActor.open(url: url, migrations: schema)
        var engine: BoutiqueSync?
        if sync { engine = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(try await server())) }
        if !keepingSync { engine = nil }
        let seconds = try await elapsed {
            for row in 0..<smallWrites {
                try await database.write { conn in
                    try conn.execute("INSERT INTO note(id, title) VALUES (?, ?)", [.text("n\(row)"), .text("t")])
                }
            }
        }
        _ = engine
        await database.close()
        return seconds
    }

    static func localCommitOnce() async throws -> Timing {
        let url = path("local")
        defer { remove(url) }
        let database = try await DatabaseActor.open(url: url, migrations: schema)
        let seconds = try await elapsed { try await insertRows(rows, into: database, prefix: "n") }
        await database.close()
        return seconds
    }

    /// A pull: with `fetching`, through the in-process server (its log query included); without, the
    /// server's answer is fetched first and handed over when the device asks (the device's work alone).
    static func pullOnce(fetching: Bool) async throws -> Timing {
        let server = try await server()
        let canned = CannedPulls(server: server)
        let sourceURL = path("source")
        let deviceURL = path("device")
        defer {
            remove(sourceURL)
            remove(deviceURL)
        }
        let options = SyncOptions(pullLimit: rows)
        let device = try await DatabaseActor.open(url: deviceURL, migrations: schema)
        let transport: any SyncTransport = fetching ? InProcessTransport.inProcess(server) : canned
        let deviceSync = try await BoutiqueSync(database: device, tables: ["note"], server: transport, options: options)
        _ = try await deviceSync.synchronize()
        let source = try await DatabaseActor.open(url: sourceURL, migrations: schema)
        let sourceSync = try await BoutiqueSync(database: source, tables: ["note"], server: .inProcess(server))
        try await insertRows(rows, into: source, prefix: "n")
        _ = try await sourceSync.push()
        if !fetching { try await canned.prepare(limit: rows) }
        var applied = 0
        let seconds = try await elapsed { applied = try await deviceSync.synchronize().applied }
        guard applied == rows else { throw BoutiqueError.invalidArgument("pulled \(applied) changes, not \(rows)") }
        await source.close()
        await device.close()
        return seconds
    }

    static func readLogOnce() async throws -> Timing {
        let url = path("log")
        defer { remove(url) }
        let database = try await DatabaseActor.open(url: url, migrations: schema)
        try await insertRows(rows, into: database, prefix: "n")
        var seen = 0
        let seconds = try await elapsed {
            for try await transaction in database.changes(since: .beginning) {
                seen += transaction.changes.filter { $0.table == "note" }.count
                if seen >= rows { break }
            }
        }
        await database.close()
        return seconds
    }

    /// A push: with `merging`, to the real server logic (its merge and log writes included); without, to
    /// an endpoint that acknowledges at once (the device's work and the transport alone).
    static func pushOnce(merging: Bool) async throws -> Timing {
        let url = path("push")
        defer { remove(url) }
        let database = try await DatabaseActor.open(url: url, migrations: schema)
        let endpoint: any SyncEndpoint = merging ? try await server() : AcknowledgingEndpoint()
        let sync = try await BoutiqueSync(
            database: database, tables: ["note"], server: .inProcess(endpoint), options: SyncOptions(pushRowLimit: rows + 10))
        try await sync.checkSchema()   // once per session, not part of pushing the changes
        try await insertRows(rows, into: database, prefix: "n")
        var pushed = 0
        let seconds = try await elapsed { pushed = try await sync.push() }
        guard pushed == rows else { throw BoutiqueError.invalidArgument("pushed \(pushed) changes, not \(rows)") }
        await database.close()
        return seconds
    }
}

/// An endpoint that acknowledges every push at once and has nothing to pull: what is left of a push
/// when the server's own work is taken away.
struct AcknowledgingEndpoint: SyncEndpoint {
    func push(_ request: PushRequest, tenant: String) async throws -> PushResponse {
        let last = request.transactions.last
        return PushResponse(
            outcome: .accepted, appliedThrough: last?.id ?? request.baseTransactionID, digest: last?.digest ?? request.baseDigest,
            serverTime: HybridTimestamp(milliseconds: UInt64(Date().timeIntervalSince1970 * 1000)))
    }

    func pull(_ request: PullRequest, tenant: String) async throws -> PullResponse {
        PullResponse(outcome: .changes, changes: [], nextCursor: request.cursor, hasMore: false, serverTime: .zero)
    }

    func snapshot(_ request: SnapshotRequest, tenant: String) async throws -> SnapshotResponse {
        SnapshotResponse(rows: [], next: nil, cursor: 0, serverTime: .zero)
    }
}

/// A transport whose next pull is answered from a response fetched beforehand.
final class CannedPulls: SyncTransport {
    private let prepared = Mutex<PullResponse?>(nil)
    let server: SyncServer

    init(server: SyncServer) { self.server = server }

    func prepare(limit: Int) async throws {
        let response = try await server.pull(PullRequest(replica: "bench", cursor: 0, limit: limit), tenant: "default")
        prepared.withLock { $0 = response }
    }

    var serverIdentifier: String { "in-process:default" }

    func push(_ request: PushRequest) async throws -> PushResponse { try await server.push(request, tenant: "default") }

    func pull(_ request: PullRequest) async throws -> PullResponse {
        if request.cursor == 0, let response = prepared.withLock({ $0.take() }) { return response }
        return try await server.pull(request, tenant: "default")
    }

    func snapshot(_ request: SnapshotRequest) async throws -> SnapshotResponse { try await server.snapshot(request, tenant: "default") }
}
