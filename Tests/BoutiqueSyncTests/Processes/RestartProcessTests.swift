// These run `boutique serve`, which needs the HTTP front end: they are compiled where the package has it.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSQLite
import BoutiqueSync
import BoutiqueTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Two `boutique serve` instances on one PostgreSQL database, each stopped with SIGTERM and started
/// again on its port in turn while devices push and pull through them: nothing a device was told is
/// acknowledged is lost or applied twice, every device ends with every row, and each instance exits 0.
@Suite(.serialized) struct RestartProcessTests {
    /// One device: its own database file, synced over HTTP with one of the instances, writing a note
    /// and syncing in a loop until told to stop.
    final class Device: Sendable {
        let name: String
        let database: DatabaseActor
        let sync: BoutiqueSync
        /// Notes written, and how many of them were written before a sync that succeeded began.
        private let progress = Lock((written: [String](), acknowledged: 0, successes: 0, longestPause: Duration.zero))

        init(name: String, file: URL, server: URL, token: String) async throws {
            self.name = name
            database = try await DatabaseActor.open(url: file, migrations: SyncTestSchema.plan)
            // Few, quick retries: a device meets a stopped instance and tries again in its own loop.
            let transport = HTTPSyncTransport(
                url: server, token: token, retry: .init(attempts: 2, initialDelay: .milliseconds(50), maximumDelay: .milliseconds(200)))
            sync = try await BoutiqueSync(database: database, tables: ["note"], server: transport)
        }

        var written: [String] { progress.withLock { $0.written } }
        var acknowledged: [String] { progress.withLock { Array($0.written.prefix($0.acknowledged)) } }
        var successes: Int { progress.withLock { $0.successes } }
        var longestPause: Duration { progress.withLock { $0.longestPause } }

        /// Writes and syncs until `stop` is set.
        func run(until stop: Lock<Bool>) async throws {
            let clock = ContinuousClock()
            var lastSuccess = clock.now
            var count = 0
            while !stop.withLock({ $0 }) {
                count += 1
                let id = "\(name)-\(count)"
                try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('\(id)', 'from \(self.name)')") }
                let before = progress.withLock { $0.written.append(id); return $0.written.count }
                do {
                    _ = try await sync.synchronize()
                    let now = clock.now
                    progress.withLock {
                        $0.acknowledged = before
                        $0.successes += 1
                        $0.longestPause = max($0.longestPause, now - lastSuccess)
                    }
                    lastSuccess = now
                } catch {
                    // The instance is stopping or not started yet: again a moment later.
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
        }

        func notes() async throws -> Set<String> { Set(try await database.rows("note").map { $0[0] }) }
    }

    @Test func devicesLoseNothingWhileEachInstanceRestartsInTurn() async throws {
        try await PostgreSQLTestDatabase.withFresh { postgres in
            let workspace = try SyncWorkspace()
            var servers = [try await Self.serve(workspace, postgres: postgres), try await Self.serve(workspace, postgres: postgres)]
            let token = try await workspace.token()
            let quietToken = try await workspace.token(tenant: "quiet")
            // Under a sanitizer (CI names it in BOUTIQUE_TEST_SANITIZER) every step is several times slower.
            let deviceCount = TestBudget.isSanitized ? 6 : 20
            var devices: [Device] = []
            for index in 0..<deviceCount {
                devices.append(
                    try await Device(
                        name: "d\(index)", file: workspace.directory.file("d\(index).db"), server: URL(string: servers[index % 2].url)!,
                        token: token))
            }
            let stop = Lock(false)
            let loops = devices.map { device in Task { try await device.run(until: stop) } }

            func everyDeviceSyncs(after counts: [Int], _ what: String) async throws {
                try await waitUntil(what) { zip(devices, counts).allSatisfy { $0.successes > $1 + 1 } }
            }
            try await everyDeviceSyncs(after: devices.map { _ in 0 }, "every device synced")
            for index in servers.indices {
                let port = try #require(URL(string: servers[index].url)?.port)
                // A long poll waiting on the instance is answered at once, not cut off with a 503.
                let address = servers[index].url
                let poll = Task { try await Self.longPoll(address, token: quietToken) }
                try await waitUntil("the long poll waits") { try await Self.longPollWaits(metrics: servers[index].metrics) }
                let stopping = ContinuousClock.now
                servers[index].process.send(SIGTERM)
                let exit = await servers[index].process.wait(timeout: .seconds(syncHangDeadline(seconds: 30)))
                print("instance \(index) stopped in \(ContinuousClock.now - stopping) after SIGTERM")
                #expect(exit.status == 0 && !exit.signalled, "instance \(index): \(exit.errors.suffix(2_000))")
                #expect(exit.errors.contains("boutique serve: stopped"), "\(exit.errors.suffix(2_000))")
                // Every request in flight was finished, none cut off with a 503 when the grace period ran
                // out. (One that came on a connection kept alive from before, after the last answer, is
                // answered 503 and sent again by its device: it was never in flight.)
                let cutOff = exit.errors.split(separator: "\n").filter { $0.contains("after the grace period were answered 503") }
                #expect(cutOff.isEmpty, "instance \(index) cut requests off: \(cutOff.prefix(3))")
                // Answered, and its connection closed rather than kept alive for a server that stops.
                let answer = try await poll.value
                #expect(answer.status == 200, "the waiting long poll was answered \(answer.status)")
                #expect(answer.connection?.lowercased() == "close", "Connection: \(answer.connection ?? "none")")
                let counts = devices.map(\.successes)
                servers[index] = try await Self.serve(workspace, port: port, postgres: postgres)
                try await everyDeviceSyncs(after: counts, "every device synced after instance \(index) restarted")
            }
            stop.withLock { $0 = true }
            for loop in loops { try await loop.value }

            // Every device ends with every note written anywhere, acknowledged or not.
            let all = Set(devices.flatMap(\.written))
            try await waitUntil("every device has every note") {
                for device in devices { _ = try? await device.sync.synchronize() }
                for device in devices where try await device.notes() != all { return false }
                return true
            }
            for device in devices {
                let notes = try await device.notes()
                #expect(Set(device.acknowledged).isSubset(of: notes), "\(device.name) kept what was acknowledged")
                #expect(notes == all, "\(device.name) has \(notes.count) of \(all.count) notes")
                print("\(device.name): \(device.written.count) notes written, \(device.successes) syncs, longest pause \(device.longestPause)")
            }
            // Each note is in the server's log once: no retried push was applied twice.
            let logged = try await PostgreSQLTestDatabase.integers(
                "SELECT count(*) FROM boutique_sync_server_log WHERE tenant = 'acme'", on: postgres)
            let rows = try await PostgreSQLTestDatabase.integers(
                "SELECT count(*) FROM boutique_sync_server_row WHERE tenant = 'acme'", on: postgres)
            #expect(logged == [Int64(all.count)] && rows == [Int64(all.count)], "log \(logged), rows \(rows), notes \(all.count)")
            for device in devices { await device.database.close() }
            for server in servers {
                server.process.send(SIGTERM)
                _ = await server.process.wait(timeout: .seconds(syncHangDeadline(seconds: 30)))
            }
        }
    }

    /// Starts an instance with its metrics served, and returns it with its address and its metrics' address.
    static func serve(_ workspace: SyncWorkspace, port: Int = 0, postgres: String) async throws -> (
        process: ChildProcess, url: String, metrics: String
    ) {
        let (process, url) = try await workspace.serve(port: port, postgres: postgres, flags: ["--metrics-port", "0"])
        let metrics = try await process.line(startingWith: "metrics on ")
        return (process, url, String(metrics.dropFirst("metrics on ".count)))
    }

    /// A pull that waits for changes (up to 50 s) of a tenant nobody writes to: the status it was
    /// answered with, and its `Connection` header.
    static func longPoll(_ server: String, token: String) async throws -> (status: Int, connection: String?) {
        var request = URLRequest(url: URL(string: server)!.appendingPathComponent("v1/pull"))
        request.httpMethod = "POST"
        request.httpBody = try RawHTTP.json(PullRequest(replica: "long-poll", cursor: 0, limit: 10, waitMilliseconds: 50_000))
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.timeoutInterval = 120
        let (_, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        return (http?.statusCode ?? 0, http?.value(forHTTPHeaderField: "Connection"))
    }

    /// Whether the instance's metrics count a long poll waiting.
    static func longPollWaits(metrics: String) async throws -> Bool {
        let (data, _) = try await URLSession.shared.data(from: URL(string: metrics)!)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").contains { $0.hasPrefix("boutique_long_polls_waiting ") && !$0.hasSuffix(" 0") }
    }
}
#endif
