import BoutiqueDB
import BoutiqueSync
import BoutiqueSyncServer
import Foundation

/// A new device's bootstrap: `boutique sync` (the command-line tool, a child process) bootstraps
/// 10,000, 40,000 and 160,000 notes (and 640,000 with `--bootstrap-large`) from a server process on
/// 127.0.0.1; printed for each are the rows a second, the bytes a row on the wire, and the tool's peak
/// resident memory (`VmHWM`). A bootstrap that commits page by page holds one page at a time, so the
/// memory should not grow with the rows, nor the time a row. A second line splits each into phases
/// (``BootstrapPhases``).
///
///     swift build -c release --product boutique && swift run -c release boutique-benchmarks --bootstrap-memory
///
/// The tool is looked for beside this executable (`BOUTIQUE_CLI` names another).
enum BootstrapMemoryWorkloads {
    static let sizes = [10_000, 40_000, 160_000]
    /// The sizes with `--bootstrap-large`: seeding 640,000 rows takes minutes.
    static let largeSizes = sizes + [640_000]

    static func run(sizes: [Int] = sizes) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("boutique-bootstrap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let storePath = folder.appendingPathComponent("server.db")
        // The server's rows are written in this process, through the server's logic, before the server
        // process opens the file: seeding over HTTP would take longer than the measurement.
        let store = try await SQLiteSyncStore.open(url: storePath)
        var phases: [Int: BootstrapPhases] = [:]
        for size in sizes {
            let start = SyncNetworkWorkloads.now()
            try await seed(SyncServer(store: store), tenant: "bootstrap-\(size)", rows: size)
            print(String(format: "  seeded %d rows in %.1f s", size, SyncNetworkWorkloads.now() - start))
            phases[size] = try await BootstrapPhases.measure(store: store, tenant: "bootstrap-\(size)", folder: folder)
        }
        await store.close()

        let server = try ServerProcess(store: "sqlite:" + storePath.path)
        defer { server.stop() }
        let url = try await server.url()
        let tool = cliPath()
        print("\nbootstrap of a new device with `boutique sync` (\(tool))")
        for size in sizes {
            let database = folder.appendingPathComponent("device-\(size).db")
            let created = try await DatabaseActor.open(url: database, migrations: SyncNetworkWorkloads.schema)
            await created.close()
            let token = try SyncNetworkWorkloads.token(tenant: "bootstrap-\(size)", user: "bench")
            let start = SyncNetworkWorkloads.now()
            let serverCPU = server.cpuSeconds()
            let toolCPU = childrenCPUSeconds()
            let (peak, output) = try runMeasured(tool, ["sync", database.path, "--server", url.absoluteString, "--token", token, "--tables", "note"])
            let seconds = SyncNetworkWorkloads.now() - start
            // CPU time a row, of each process: what the figures come to on a machine busy with other work.
            let toolMicroseconds = (childrenCPUSeconds() - toolCPU) / Double(size) * 1e6
            let serverMicroseconds = (server.cpuSeconds() - serverCPU) / Double(size) * 1e6
            let bytes = wireBytes(in: output).map { String(format: "%.0f", Double($0) / Double(size)) } ?? "?"
            print(String(
                format: "  %7d rows: %.2f s, %7.0f rows/s, %@ bytes a row on the wire, peak %5.1f MB; CPU a row: tool %.1f µs, server %.1f µs",
                size, seconds, Double(size) / seconds, bytes, Double(peak) / 1_048_576, toolMicroseconds, serverMicroseconds))
            if let phases = phases[size] { print("           " + phases.line(httpSeconds: seconds)) }
        }
    }

    /// Pushes `rows` notes to `server` under `tenant`, 10,000 to a transaction.
    static func seed(_ server: SyncServer, tenant: String, rows: Int) async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncNetworkWorkloads.schema)
        let sync = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(server, tenant: tenant))
        var written = 0
        while written < rows {
            let count = min(10_000, rows - written)
            try await SyncWorkloads.insertRows(count, into: database, prefix: "\(tenant)-\(written)")
            written += count
            _ = try await sync.synchronize()
        }
        await sync.stop()
        await database.close()
    }

    static func cliPath() -> String {
        if let path = ProcessInfo.processInfo.environment["BOUTIQUE_CLI"], !path.isEmpty { return path }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent()
            .appendingPathComponent("boutique").path
    }

    /// Runs `tool` to its end and returns its peak memory in bytes (``ProcessUsage/peakBytes(of:)``
    /// only grows, so the last reading before the exit is the peak up to then; readings are 5 ms apart)
    /// and what it printed.
    static func runMeasured(_ tool: String, _ arguments: [String]) throws -> (peak: Int, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("boutique-bootstrap-output-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forWritingTo: file)
        process.standardOutput = handle
        try process.run()
        var peak = 0
        while process.isRunning {
            peak = max(peak, highWaterMark(of: process.processIdentifier))
            usleep(5_000)
        }
        try handle.close()
        let output = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw BoutiqueError.syncUnavailable(reason: "boutique sync ended with status \(process.terminationStatus): \(output.suffix(500))")
        }
        return (peak, output)
    }

    /// The bytes the tool's summary says the bootstrap moved (`…, 1234567 bytes on the wire, …`),
    /// `nil` from a tool that does not say.
    static func wireBytes(in output: String) -> Int? {
        guard let range = output.range(of: " bytes on the wire") else { return nil }
        let digits = output[..<range.lowerBound].reversed().prefix { $0.isNumber }
        return Int(String(digits.reversed()))
    }

    static func highWaterMark(of pid: Int32) -> Int { ProcessUsage.peakBytes(of: pid) }

    /// The user and system CPU time of this process's children that ended and were waited for.
    static func childrenCPUSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        #else
        getrusage(RUSAGE_CHILDREN, &usage)
        #endif
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
