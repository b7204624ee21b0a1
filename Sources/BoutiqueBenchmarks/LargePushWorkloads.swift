import BoutiqueDB
import BoutiqueSync
import Foundation

/// One local transaction of 20,000, 80,000 and 200,000 notes (an import in one `write`) pushed by
/// `boutique sync` (the command-line tool, a child process) to a server process on 127.0.0.1: a
/// transaction that large goes in parts, kept by the server until the last, which applies the whole.
/// Printed for each size: the wall time, the tool's and the server's CPU time and peak resident memory
/// (`VmHWM`; a fresh server for each size), and the same a row, with each a row's ratio to the
/// smallest size's, so that a cost that grows faster than the rows shows (a ratio well above 1).
///
///     swift build -c release --product boutique && swift run -c release boutique-benchmarks --push-large
///
/// Each figure is the median of 3 rounds (`BOUTIQUE_BENCH_PUSH_ROUNDS`), the sizes taking turns.
/// `BOUTIQUE_BENCH_PUSH_ROWS` (a comma-separated list) names other sizes; the tool is looked for beside
/// this executable (`BOUTIQUE_CLI` names another). `--push-throughput` runs this too.
enum LargePushWorkloads {
    static let sizes = [20_000, 80_000, 200_000]

    /// What one push of one large transaction cost.
    struct Measurement {
        let rows: Int
        let seconds: Double
        let toolCPU: Double
        let serverCPU: Double
        let toolPeak: Int
        let serverPeak: Int
    }

    static func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let sizes = environment["BOUTIQUE_BENCH_PUSH_ROWS"].map {
            $0.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        } ?? sizes
        let rounds = max(1, environment["BOUTIQUE_BENCH_PUSH_ROUNDS"].flatMap(Int.init) ?? 3)
        let tool = BootstrapMemoryWorkloads.cliPath()
        print("\none local transaction of N rows pushed by `boutique sync` (\(tool)) to a server process; medians of \(rounds) rounds")
        // The sizes take turns (A B C A B C …), so that a busy spell of the machine falls on all of them.
        var measured: [Int: [Measurement]] = [:]
        for _ in 0..<rounds {
            for rows in sizes { measured[rows, default: []].append(try await measure(rows: rows, tool: tool)) }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        var base: (wall: Double, tool: Double, server: Double)?
        for rows in sizes {
            let runs = measured[rows] ?? []
            let count = Double(rows)
            let wall = median(runs.map(\.seconds)) / count
            let toolCPU = median(runs.map(\.toolCPU)) / count
            let serverCPU = median(runs.map(\.serverCPU)) / count
            let first = base ?? (wall, toolCPU, serverCPU)
            base = first
            let toolPeak = median(runs.map { Double($0.toolPeak) })
            print(String(
                format: "  %7d rows: %6.2f s wall (%.2f–%.2f), CPU tool %6.2f s, server %6.2f s; peak tool %6.1f MB, server %6.1f MB",
                rows, wall * count, runs.map(\.seconds).min() ?? 0, runs.map(\.seconds).max() ?? 0, toolCPU * count, serverCPU * count,
                toolPeak / 1_048_576, median(runs.map { Double($0.serverPeak) }) / 1_048_576))
            print(String(
                format: "           a row: wall %5.1f µs (%.2f×), tool CPU %5.1f µs (%.2f×), server CPU %5.1f µs (%.2f×); tool peak %.2f KB a row",
                wall * 1e6, wall / first.wall, toolCPU * 1e6, toolCPU / first.tool, serverCPU * 1e6, serverCPU / first.server,
                toolPeak / 1_024 / count))
        }
    }

    /// Writes `rows` notes in one transaction to a new file set up for sync, then runs `boutique sync`
    /// on it against a new server process, to its end.
    static func measure(rows: Int, tool: String) async throws -> Measurement {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("boutique-push-large-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServerProcess(store: "sqlite")
        defer { server.stop() }
        let url = try await server.url()
        let token = try SyncNetworkWorkloads.token(tenant: "push-large-\(rows)", user: "bench")
        let file = folder.appendingPathComponent("device.db")
        // Sync is set up and has synced once before the write, as in an app: the transaction is stamped
        // at its commit, and the tool's run is the push (and a pull of nothing), not a first bootstrap.
        let database = try await DatabaseActor.open(url: file, migrations: SyncNetworkWorkloads.schema)
        let sync = try await BoutiqueSync(database: database, tables: ["note"], server: .http(url, token: token))
        _ = try await sync.synchronize()
        try await SyncWorkloads.insertRows(rows, into: database, prefix: "import")
        await sync.stop()
        await database.close()

        let serverCPU = server.cpuSeconds()
        let toolCPU = BootstrapMemoryWorkloads.childrenCPUSeconds()
        let start = SyncNetworkWorkloads.now()
        let (peak, output) = try BootstrapMemoryWorkloads.runMeasured(
            tool, ["sync", file.path, "--server", url.absoluteString, "--token", token, "--tables", "note"])
        let seconds = SyncNetworkWorkloads.now() - start
        // Every row is one change on the wire: a run that pushed fewer measured something else.
        guard output.contains("pushed \(rows) changes") else {
            throw BoutiqueError.syncUnavailable(reason: "boutique sync did not push the \(rows) rows: \(output.suffix(500))")
        }
        return Measurement(
            rows: rows, seconds: seconds, toolCPU: BootstrapMemoryWorkloads.childrenCPUSeconds() - toolCPU,
            serverCPU: server.cpuSeconds() - serverCPU, toolPeak: peak, serverPeak: server.peakBytes())
    }
}
