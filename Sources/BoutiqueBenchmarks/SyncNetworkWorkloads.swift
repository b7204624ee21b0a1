import BoutiqueDB
import BoutiqueSQLite
import BoutiqueSync
import BoutiqueSyncServer
import Foundation

#if BOUTIQUE_SYNC_HTTP
import BoutiqueSyncHTTP
#endif

/// Sync over a real network: a server process (this executable, started again in server mode) on
/// 127.0.0.1 and devices in this process.
///
/// - commit on device A → the new value in a live query on device B, both `start()`ed (p50, p99);
/// - 20 devices each pushing 1,000 one-change transactions at once: all accepted exactly once, the
///   server's changes per second, and the server's CPU time per change against a plain local insert
///   of the same row, measured in the same run;
/// - 200 idle long-polling devices woken by one push (p50, p99), and the server's memory.
///
///     swift run -c release boutique-benchmarks --network
///
/// With `BOUTIQUE_BENCH_POSTGRES_URL` set, the push figure is also taken on the PostgreSQL store.
enum SyncNetworkWorkloads {
    static let secret = Array("the benchmark's token secret, 32+ bytes".utf8)

    /// Why the workloads with a server process cannot run in a build without the HTTP front end.
    static let missingHTTP =
        "this build has no HTTP front end (GNU libmicrohttpd is not installed: `sudo apt-get install libmicrohttpd-dev` or `brew install libmicrohttpd`)"

    static func run() async throws {
        var stores = ["sqlite"]
        if let postgres = ProcessInfo.processInfo.environment["BOUTIQUE_BENCH_POSTGRES_URL"], !postgres.isEmpty {
            stores.append("postgres:" + postgres)
        }
        let local = try await localInsertCosts(rows: 20_000)
        print("\nsync over HTTP on 127.0.0.1 — the server a separate process")
        print(String(format: "  plain local insert of the row: %.1f µs in its own transaction, %.1f µs in a 1,000-row transaction",
                     local.oneRowTransaction * 1e6, local.batched * 1e6))
        let server = try ServerProcess(store: "sqlite")
        defer { server.stop() }
        let url = try await server.url()
        let latencies = try await liveLatencies(url: url, commits: 200)
        BenchmarkStatistics.printLatencies("commit on A → B's live query", latencies)
        try await idlePolls(server: server, url: url, devices: 200)
        for store in stores {
            let pushServer = store == "sqlite" ? server : try ServerProcess(store: store)
            let pushURL = store == "sqlite" ? url : try await pushServer.url()
            try await manyPushers(server: pushServer, url: pushURL, store: store, devices: 20, transactions: 1_000, local: local)
            if store != "sqlite" { pushServer.stop() }
        }
    }

    // MARK: Devices

    static let schema = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_notes") { conn in
            try conn.execute("CREATE TABLE note(id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, body TEXT, rank INTEGER)")
        }
    }

    static func token(tenant: String, user: String) throws -> String {
        try SyncTokenSigner(secret: secret).token(tenant: tenant, user: user, expiresAt: Date().addingTimeInterval(3_600))
    }

    static func device(url: URL, tenant: String, user: String, options: SyncOptions = SyncOptions()) async throws -> (DatabaseActor, BoutiqueSync) {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: schema)
        let sync = try await BoutiqueSync(
            database: database, tables: ["note"], server: .http(url, token: try token(tenant: tenant, user: user)), options: options)
        return (database, sync)
    }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    // MARK: Live latency

    static func liveLatencies(url: URL, commits: Int) async throws -> [Double] {
        let tenant = "latency-\(UUID().uuidString)"
        let (a, syncA) = try await device(url: url, tenant: tenant, user: "a")
        let (b, syncB) = try await device(url: url, tenant: tenant, user: "b")
        syncA.start()
        syncB.start()
        let seen = LatestRank()
        let watcher = Task {
            for try await rows in b.observe(SyncedNote.all.order { $0.rank.desc() }.limit(1)) {
                if let rank = rows.first?.rank { seen.set(rank, at: now()) }
            }
        }
        try await Task.sleep(for: .milliseconds(300))
        var latencies: [Double] = []
        for index in 1...commits {
            let start = now()
            try await a.write { conn in
                try conn.execute("INSERT INTO note(id, title, rank) VALUES (?, 'latency', ?)", [.text("n\(index)"), .integer(Int64(index))])
            }
            guard let arrived = await seen.wait(for: index, timeout: 5) else {
                print("  ! commit \(index) did not reach B within 5 s")
                break
            }
            latencies.append(arrived - start)
            try await Task.sleep(for: .milliseconds(5))
        }
        watcher.cancel()
        await syncA.stop()
        await syncB.stop()
        await a.close()
        await b.close()
        return latencies
    }

    /// The latest rank a live query delivered, and when.
    final class LatestRank: Sendable {
        private let latest = Lock((rank: 0, at: 0.0))

        func set(_ rank: Int, at time: Double) {
            latest.withLock { if rank > $0.rank { $0 = (rank, time) } }
        }

        func wait(for wanted: Int, timeout: Double) async -> Double? {
            let deadline = now() + timeout
            while now() < deadline {
                let current = latest.withLock { $0 }
                if current.rank >= wanted { return current.at }
                try? await Task.sleep(for: .microseconds(200))
            }
            return nil
        }
    }

    // MARK: Idle long polls

    static func idlePolls(server: ServerProcess, url: URL, devices: Int) async throws {
        let tenant = "polls-\(UUID().uuidString)"
        let token = try token(tenant: tenant, user: "poller")
        let idleMemory = server.residentBytes()
        let pushedAt = LatestRank()
        let arrivals = try await withThrowingTaskGroup(of: Double?.self) { group -> [Double] in
            for index in 0..<devices {
                group.addTask {
                    let transport = HTTPSyncTransport(url: url, token: token, timeout: .seconds(60))
                    let response = try await transport.pull(PullRequest(replica: "poller-\(index)", cursor: 0, limit: 10, waitMilliseconds: 30_000))
                    return response.changes.isEmpty ? nil : now()
                }
            }
            // Wait until every poll is parked on the server, then push one change.
            try await Task.sleep(for: .milliseconds(1_500))
            let waitingMemory = server.residentBytes()
            print(String(format: "  server memory: %.1f MB idle, %.1f MB with %d polls waiting", Double(idleMemory) / 1e6, Double(waitingMemory) / 1e6, devices))
            let (pusher, sync) = try await device(url: url, tenant: tenant, user: "pusher")
            try await pusher.write { conn in try conn.execute("INSERT INTO note(id, title, rank) VALUES ('wake', 'up', 1)") }
            let start = now()
            pushedAt.set(1, at: start)
            _ = try await sync.push()
            var arrived: [Double] = []
            for try await time in group { if let time { arrived.append(time - start) } }
            await pusher.close()
            return arrived
        }
        BenchmarkStatistics.printLatencies("one push → \(devices) waiting polls", arrivals)
        if arrivals.count != devices { print("  ! only \(arrivals.count) of \(devices) polls got the change") }
    }

    // MARK: Many pushers

    struct LocalCosts {
        var oneRowTransaction: Double
        var batched: Double
    }

    /// Seconds per row of inserting the same rows locally: each in its own awaited transaction, and
    /// 1,000 to a transaction; change log off, like the server's store.
    static func localInsertCosts(rows: Int) async throws -> LocalCosts {
        let database = try await DatabaseActor.open(
            url: BoutiqueDB.inMemoryURL(), migrations: schema, options: DatabaseOptions(changeCapture: ChangeCaptureOptions(mode: .off)))
        let single = 2_000
        var start = now()
        for row in 0..<single {
            try await database.write { conn in
                try conn.execute("INSERT INTO note(id, title, body, rank) VALUES (?, ?, ?, ?)",
                                 [.text("s\(row)"), .text("title \(row)"), .text("body \(row)"), .integer(Int64(row))])
            }
        }
        let oneRow = (now() - start) / Double(single)
        start = now()
        for batch in 0..<(rows / 1_000) {
            try await database.write { conn in
                for row in 0..<1_000 {
                    try conn.execute("INSERT INTO note(id, title, body, rank) VALUES (?, ?, ?, ?)",
                                     [.text("b\(batch)-\(row)"), .text("title \(row)"), .text("body \(row)"), .integer(Int64(row))])
                }
            }
        }
        let batched = (now() - start) / Double(rows)
        await database.close()
        return LocalCosts(oneRowTransaction: oneRow, batched: batched)
    }

    static func manyPushers(server: ServerProcess, url: URL, store: String, devices: Int, transactions: Int, local: LocalCosts) async throws {
        let tenant = "pushers-\(UUID().uuidString)"
        var pushers: [(DatabaseActor, BoutiqueSync)] = []
        for index in 0..<devices {
            let pusher = try await device(url: url, tenant: tenant, user: "device-\(index)")
            for row in 0..<transactions {
                try await pusher.0.write { conn in
                    try conn.execute("INSERT INTO note(id, title, body, rank) VALUES (?, ?, ?, ?)",
                                     [.text("d\(index)-\(row)"), .text("title \(row)"), .text("body \(row)"), .integer(Int64(row))])
                }
            }
            pushers.append(pusher)
        }
        let cpuBefore = server.cpuSeconds()
        let databaseBefore = ServerProcess.cpuSeconds(ofProcessesNamed: "postgres")
        let start = now()
        let accepted = try await withThrowingTaskGroup(of: Int.self) { group -> Int in
            for (_, sync) in pushers { group.addTask { try await sync.push() } }
            return try await group.reduce(0, +)
        }
        let seconds = now() - start
        let cpu = server.cpuSeconds() - cpuBefore
        let databaseCPU = ServerProcess.cpuSeconds(ofProcessesNamed: "postgres") - databaseBefore
        let total = devices * transactions
        // Exactly once: a fresh device pulls the tenant's whole log.
        let (checker, checkSync) = try await device(url: url, tenant: tenant, user: "checker", options: SyncOptions(pullLimit: 10_000))
        _ = try await checkSync.synchronize()
        let rows = try await checker.read { conn in try conn.fetchValue("SELECT count(*) FROM note") }
        let name = store.hasPrefix("postgres") ? "PostgreSQL store" : "SQLite store"
        print("\n\(devices) devices × \(transactions) one-change transactions pushed at once, \(name)")
        print(String(format: "  %d accepted (%@ rows on a fresh device), %.2f s: %.0f changes/s", accepted, "\(rows ?? .null)", seconds, Double(total) / seconds))
        let perChange = cpu / Double(total)
        print(String(format: "  server CPU per change: %.1f µs = %.2f× a one-row local transaction, %.2f× a row of a 1,000-row one",
                     perChange * 1e6, perChange / local.oneRowTransaction, perChange / local.batched))
        if store.hasPrefix("postgres") {
            let both = (cpu + databaseCPU) / Double(total)
            print(String(format: "  with PostgreSQL's own processes: %.1f µs per change = %.2f× a one-row local transaction",
                         both * 1e6, both / local.oneRowTransaction))
        }
        for (database, _) in pushers { await database.close() }
        await checker.close()
    }
}

@Table("note")
struct SyncedNote: Sendable {
    @Column(primaryKey: true) var id: String
    var title: String
    var body: String?
    var rank: Int
}

/// This executable in server mode (`--serve-for-benchmark STORE`), as a child process: so that its
/// memory and CPU time are its own.
final class ServerProcess: @unchecked Sendable {
    private let process = Process()
    private let output = Pipe()
    private let folder: URL

    /// Settings of the server mode, passed in its environment.
    struct Settings {
        /// The HTTP front end's connection limit.
        var connectionLimit = 1_000
        /// The longest a pull may wait, in milliseconds.
        var maximumWaitMilliseconds = 30_000
        /// The PostgreSQL store's connections.
        var postgresConnections = 4
        /// Whether the server runs housekeeping (garbage collection, freed memory handed back).
        var housekeeping = true
        /// Whether the server keeps its default limits per client address; otherwise one address may
        /// hold every connection (every benchmark client but the abusive ones comes from 127.0.0.1).
        var defaultAddressLimits = false
        /// The server's rules, as `boutique serve --rules` reads them; `nil` for none.
        var rulesJSON: String?
        /// Whether the server keeps attachments, in a folder beside its store.
        var keepsAttachments = false

        var environment: [String: String] {
            ["BOUTIQUE_BENCH_SERVER_CONNECTION_LIMIT": String(connectionLimit),
             "BOUTIQUE_BENCH_SERVER_MAXIMUM_WAIT": String(maximumWaitMilliseconds),
             "BOUTIQUE_BENCH_SERVER_POSTGRES_CONNECTIONS": String(postgresConnections),
             "BOUTIQUE_BENCH_SERVER_HOUSEKEEPING": housekeeping ? "1" : "0",
             "BOUTIQUE_BENCH_SERVER_DEFAULT_ADDRESS_LIMITS": defaultAddressLimits ? "1" : "0",
             "BOUTIQUE_BENCH_SERVER_RULES": rulesJSON ?? "",
             "BOUTIQUE_BENCH_SERVER_ATTACHMENTS": keepsAttachments ? "1" : "0"]
        }

        /// The settings the server mode was started with.
        static var current: Settings {
            let environment = ProcessInfo.processInfo.environment
            var settings = Settings()
            if let limit = environment["BOUTIQUE_BENCH_SERVER_CONNECTION_LIMIT"].flatMap(Int.init) { settings.connectionLimit = limit }
            if let wait = environment["BOUTIQUE_BENCH_SERVER_MAXIMUM_WAIT"].flatMap(Int.init) { settings.maximumWaitMilliseconds = wait }
            if let count = environment["BOUTIQUE_BENCH_SERVER_POSTGRES_CONNECTIONS"].flatMap(Int.init) { settings.postgresConnections = count }
            settings.housekeeping = environment["BOUTIQUE_BENCH_SERVER_HOUSEKEEPING"] != "0"
            settings.defaultAddressLimits = environment["BOUTIQUE_BENCH_SERVER_DEFAULT_ADDRESS_LIMITS"] == "1"
            settings.rulesJSON = environment["BOUTIQUE_BENCH_SERVER_RULES"].flatMap { $0.isEmpty ? nil : $0 }
            settings.keepsAttachments = environment["BOUTIQUE_BENCH_SERVER_ATTACHMENTS"] == "1"
            return settings
        }
    }

    init(store: String, settings: Settings = Settings()) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("boutique-bench-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        process.arguments = ["--serve-for-benchmark", store == "sqlite" ? "sqlite:" + folder.appendingPathComponent("server.db").path : store]
        process.environment = ProcessInfo.processInfo.environment.merging(settings.environment) { _, new in new }
        process.standardOutput = output
        try process.run()
    }

    /// The server's process id.
    var pid: Int32 { process.processIdentifier }

    func url() async throws -> URL {
        var text = ""
        let handle = output.fileHandleForReading
        while !text.contains("\n") {
            let chunk = handle.availableData
            if chunk.isEmpty { throw BoutiqueError.syncUnavailable(reason: "the benchmark server ended early") }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let line = text.split(separator: "\n").first, line.hasPrefix("listening on "),
            let url = URL(string: String(line.dropFirst("listening on ".count)))
        else { throw BoutiqueError.syncUnavailable(reason: "the benchmark server said \(text)") }
        return url
    }

    /// The server's resident memory, in bytes.
    func residentBytes() -> Int { ProcessUsage.residentBytes(of: process.processIdentifier) }

    /// The server's peak resident memory so far, in bytes.
    func peakBytes() -> Int { ProcessUsage.peakBytes(of: process.processIdentifier) }

    /// The server's user + system CPU time so far.
    func cpuSeconds() -> Double { ProcessUsage.cpuSeconds(of: process.processIdentifier) }

    /// The CPU time so far of every process whose name is `name` (PostgreSQL's backends, say).
    static func cpuSeconds(ofProcessesNamed name: String) -> Double {
        ProcessUsage.processes(named: name).reduce(0) { $0 + ProcessUsage.cpuSeconds(of: $1) }
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        // A child started from a thread of the cooperative pool inherits its blocked signals, SIGTERM
        // among them: it is killed when it has not ended soon after.
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Server mode: serve until terminated, with housekeeping on as `boutique serve` has it.
    static func serve(store: String) async throws -> Never {
        let settings = Settings.current
        let syncStore: any SyncStore
        if store.hasPrefix("sqlite:") {
            syncStore = try await SQLiteSyncStore.open(url: URL(fileURLWithPath: String(store.dropFirst("sqlite:".count))))
        } else if store.hasPrefix("postgres:") {
            syncStore = try await PostgreSQLSyncStore.open(
                url: String(store.dropFirst("postgres:".count)), connections: settings.postgresConnections)
        } else {
            throw BoutiqueError.syncUnavailable(reason: "unknown store \(store)")
        }
        #if BOUTIQUE_SYNC_HTTP
        FileLimit.raise()
        let rules = try settings.rulesJSON.map { try JSONDecoder().decode(SyncRules.self, from: Data($0.utf8)) }
        let server = SyncServer(store: syncStore, rules: rules)
        var options = SyncHTTPOptions(maximumWaitMilliseconds: settings.maximumWaitMilliseconds, connectionLimit: settings.connectionLimit)
        // Every benchmark client but the abusive ones comes from 127.0.0.1: there the per-address cap
        // is the whole limit.
        if !settings.defaultAddressLimits { options.connectionsPerAddress = settings.connectionLimit }
        // Another budget of answers waiting to be read, to see what each costs without one.
        if let bytes = ProcessInfo.processInfo.environment["BOUTIQUE_BENCH_SERVER_QUEUED_RESPONSE_BYTES"].flatMap(Int.init) {
            options.maximumQueuedResponseBytes = bytes
        }
        // Attachments in a folder beside a SQLite store's file (in a temporary one beside PostgreSQL).
        let attachments = try settings.keepsAttachments ? FolderAttachmentStore(directory: store.hasPrefix("sqlite:")
            ? URL(fileURLWithPath: String(store.dropFirst("sqlite:".count))).deletingLastPathComponent().appendingPathComponent("attachments")
            : FileManager.default.temporaryDirectory.appendingPathComponent("boutique-bench-attachments-\(UUID().uuidString)")) : nil
        let http = try SyncHTTPServer(
            server: server, signer: try SyncTokenSigner(secret: SyncNetworkWorkloads.secret), port: 0, options: options,
            attachments: attachments)
        let housekeeping = SyncHousekeeping(server: server)
        if settings.housekeeping { await housekeeping.start() }
        FileHandle.standardOutput.write(Data("listening on \(http.url.absoluteString)\n".utf8))
        while true { try await Task.sleep(for: .seconds(3_600)) }
        #else
        _ = syncStore
        throw BoutiqueError.syncUnavailable(reason: SyncNetworkWorkloads.missingHTTP)
        #endif
    }
}
