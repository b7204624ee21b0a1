import BoutiqueDB
import BoutiqueSync
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One-change pushes on the PostgreSQL store against what the same cluster does for `pgbench`'s
/// one-row INSERTs, measured in the same run:
///
/// - `pgbench` (when installed): 20 clients, 2 threads, 10 s of one-row INSERT transactions into a
///   table of the benchmark's own, transactions per second;
/// - 20 devices of 20 tenants, then 20 devices of one tenant, each pushing 1,000 one-change
///   transactions at once to a server process on the store: changes per second, and the ratio to
///   `pgbench`'s transactions per second.
///
///     BOUTIQUE_BENCH_POSTGRES_URL=postgresql://… swift run -c release boutique-benchmarks --push-throughput
///
/// The server's PostgreSQL store has `BOUTIQUE_BENCH_POSTGRES_CONNECTIONS` connections (4, the
/// store's default, when unset; a comma-separated list measures each).
enum PushThroughputWorkloads {
    static func run() async throws {
        guard let url = ProcessInfo.processInfo.environment["BOUTIQUE_BENCH_POSTGRES_URL"], !url.isEmpty else {
            print("\n--push-throughput needs BOUTIQUE_BENCH_POSTGRES_URL (Scripts/postgres-test-cluster.sh start DIR prints one)")
            return
        }
        let pools = (ProcessInfo.processInfo.environment["BOUTIQUE_BENCH_POSTGRES_CONNECTIONS"] ?? "4")
            .split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let insertRate = try PgBench.insertTransactionsPerSecond(url: url)
        print("\none-change pushes on the PostgreSQL store, and pgbench on the same cluster")
        if let insertRate {
            print(String(format: "  pgbench, one-row INSERT, -c 20 -j 2 -T 10: %.0f transactions/s", insertRate))
        } else {
            print("  pgbench is not installed (/usr/lib/postgresql/15/bin/pgbench or on PATH): no ratio")
        }
        for pool in pools {
            let server = try ServerProcess(store: "postgres:" + url, settings: ServerProcess.Settings(postgresConnections: pool))
            defer { server.stop() }
            let serverURL = try await server.url()
            for tenants in [20, 1] {
                let measured = try await pushRate(server: server, url: serverURL, devices: 20, tenants: tenants, transactions: 1_000)
                let ratio = insertRate.map { String(format: " = %.2f× pgbench", measured.rate / $0) } ?? ""
                print(String(format: "  %d connections, 20 devices of %@: %.0f changes/s%@", pool, tenants == 1 ? "one tenant" : "\(tenants) tenants",
                             measured.rate, ratio))
                print(String(format: "    CPU per change: server %.0f µs, PostgreSQL %.0f µs, the devices (this process) %.0f µs",
                             measured.server * 1e6, measured.database * 1e6, measured.devices * 1e6))
            }
        }
    }

    /// Changes per second of `devices` devices spread over `tenants` tenants pushing `transactions`
    /// one-change transactions each, all at once, and the CPU seconds per change of the server, of
    /// PostgreSQL's processes and of this process (the devices).
    static func pushRate(
        server: ServerProcess, url: URL, devices: Int, tenants: Int, transactions: Int
    ) async throws -> (rate: Double, server: Double, database: Double, devices: Double) {
        let run = UUID().uuidString.prefix(8)
        var pushers: [(DatabaseActor, BoutiqueSync)] = []
        for index in 0..<devices {
            let pusher = try await SyncNetworkWorkloads.device(url: url, tenant: "push-\(run)-\(index % tenants)", user: "device-\(index)")
            for row in 0..<transactions {
                try await pusher.0.write { conn in
                    try conn.execute("INSERT INTO note(id, title, body, rank) VALUES (?, ?, ?, ?)",
                                     [.text("d\(index)-\(row)"), .text("title \(row)"), .text("body \(row)"), .integer(Int64(row))])
                }
            }
            pushers.append(pusher)
        }
        let cpuBefore = (server.cpuSeconds(), ServerProcess.cpuSeconds(ofProcessesNamed: "postgres"), ProcessUsage.cpuSeconds(of: getpid()))
        let start = SyncNetworkWorkloads.now()
        let accepted = try await withThrowingTaskGroup(of: Int.self) { group -> Int in
            for (_, sync) in pushers { group.addTask { try await sync.push() } }
            return try await group.reduce(0, +)
        }
        let seconds = SyncNetworkWorkloads.now() - start
        let total = devices * transactions
        let perChange = (
            (server.cpuSeconds() - cpuBefore.0) / Double(total),
            (ServerProcess.cpuSeconds(ofProcessesNamed: "postgres") - cpuBefore.1) / Double(total),
            (ProcessUsage.cpuSeconds(of: getpid()) - cpuBefore.2) / Double(total))
        if accepted != total { print("  ! \(accepted) of \(total) transactions accepted") }
        for (database, _) in pushers { await database.close() }
        return (Double(total) / seconds, perChange.0, perChange.1, perChange.2)
    }
}

/// `pgbench` run on a table of the benchmark's own.
enum PgBench {
    /// The `pgbench` executable: PostgreSQL 15's, else the first on `PATH`.
    static var executable: String? {
        let candidates = ["/usr/lib/postgresql/15/bin/pgbench"]
            + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/pgbench" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Transactions per second of 20 clients (2 threads) doing one-row INSERTs for 10 s, or `nil`
    /// when `pgbench` is not installed.
    static func insertTransactionsPerSecond(url: String) throws -> Double? {
        guard let executable else { return nil }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("boutique-bench-pgbench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let create = folder.appendingPathComponent("create.sql")
        try Data("""
            DROP TABLE IF EXISTS boutique_bench_insert;
            CREATE TABLE boutique_bench_insert(id bigserial PRIMARY KEY, tenant text NOT NULL, body text NOT NULL);
            """.utf8).write(to: create)
        let insert = folder.appendingPathComponent("insert.sql")
        try Data("INSERT INTO boutique_bench_insert(tenant, body) VALUES ('bench', 'one row of about the size of a note');\n".utf8)
            .write(to: insert)
        _ = try run(executable, ["-n", "-c", "1", "-t", "1", "-f", create.path, url])
        let output = try run(executable, ["-c", "20", "-j", "2", "-T", "10", "-n", "-f", insert.path, url])
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("tps = ") }),
            let rate = Double(line.dropFirst("tps = ".count).prefix { $0.isNumber || $0 == "." })
        else { throw BoutiqueError.invalidArgument("pgbench printed no rate: \(output)") }
        return rate
    }

    /// Runs `executable` and returns what it printed. Spawned with no signal blocked: a thread of the
    /// cooperative pool blocks most signals and a child inherits that mask, and `pgbench -T` ends on
    /// SIGALRM.
    private static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("boutique-bench-pgbench-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw BoutiqueError.invalidArgument("cannot run \(executable): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        guard status == 0 else { throw BoutiqueError.invalidArgument("pgbench failed (\(status)): \(text)") }
        return text
    }
}
