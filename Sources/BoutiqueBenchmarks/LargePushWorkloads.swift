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
        let sizes = ProcessInfo.processInfo.environment["BOUTIQUE_BENCH_PUSH_ROWS"].map {
            $0.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        } ?? sizes
        let tool = BootstrapMemoryWorkloads.cliPath()
        print("\none local transaction of N rows pushed by `boutique sync` (\(tool)) to a server process")
        var first: Measurement?
        for rows in sizes {
            let measured = try await measure(rows: rows, tool: tool)
            let base = first ?? measured
            first = base
            func perRow(_ value: Double, _ count: Int) -> Double { value / Double(count) }
            print(String(
                format: "  %7d rows: %6.2f s wall, CPU tool %6.2f s, server %6.2f s; peak tool %6.1f MB, server %6.1f MB",
                rows, measured.seconds, measured.toolCPU, measured.serverCPU,
                Double(measured.toolPeak) / 1_048_576, Double(measured.serverPeak) / 1_048_576))
            print(String(
                format: "           a row: wall %5.1f µs (%.2f×), tool CPU %5.1f µs (%.2f×), server CPU %5.1f µs (%.2f×); tool peak %.2f KB a row",
                perRow(measured.seconds, rows) * 1e6, perRow(measured.seconds, rows) / perRow(base.seconds, base.rows),
                perRow(measured.toolCPU, rows) * 1e6, perRow(measured.toolCPU, rows) / perRow(base.toolCPU, base.rows),
                perRow(measured.serverCPU, rows) * 1e6, perRow(measured.serverCPU, rows) / perRow(base.serverCPU, base.rows),
                Double(measured.toolPeak) / 1_024 / Double(rows)))
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
