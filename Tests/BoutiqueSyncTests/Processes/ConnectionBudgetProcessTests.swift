// These run `boutique serve`, which needs the HTTP front end: they are compiled where the package has it.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSync
import BoutiqueTestSupport
import Foundation
import Testing

/// What clients that do not play along can hold of a `boutique serve` process: clients that ask for
/// large answers and never read them, connections that send their request a byte at a time, and —
/// what must still be served — many devices waiting on long polls from behind one address.
@Suite struct ConnectionBudgetProcessTests {
    /// Runs `body` with a `boutique serve` on a store of `kind` (returns without running it for
    /// PostgreSQL when no server is configured), with `flags`, and its port and a token for it.
    static func serving(
        _ kind: StoreKind, flags: [String], environment: [String: String] = [:], test: String = #function,
        _ body: (SyncWorkspace, ChildProcess, URL, Int, String) async throws -> Void
    ) async throws {
        func run(postgres: String?, storeDirectory: String? = nil) async throws {
            let workspace = try SyncWorkspace()
            let (server, address) = try await workspace.serve(
                postgres: postgres, storeDirectory: storeDirectory, flags: flags, environment: environment)
            let url = try #require(URL(string: address))
            let port = try #require(url.port)
            do {
                try await body(workspace, server, url, port, try await workspace.token())
            } catch {
                server.send(SIGKILL)
                _ = await server.wait()
                throw error
            }
            server.send(SIGTERM)
            _ = await server.wait()
        }
        switch kind {
        case .sqlite: try await run(postgres: nil)
        case .tenantFiles: try await run(postgres: nil, storeDirectory: "store")
        case .postgreSQL: try await PostgreSQLTestDatabase.withFresh(test: test) { try await run(postgres: $0) }
        }
    }

    /// A pull's whole request, as a client writes it.
    static func pull(token: String, replica: String, cursor: Int64 = 0, wait: Int = 0, closing: Bool = false) throws -> [UInt8] {
        let body = Array(try RawHTTP.json(PullRequest(replica: replica, cursor: cursor, limit: 1_000, waitMilliseconds: wait)))
        let head = "POST /v1/pull HTTP/1.1\r\nHost: sync\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.count)\r\n" + (closing ? "Connection: close\r\n" : "") + "\r\n"
        return Array(head.utf8) + body
    }

    /// The resident memory of process `pid`, in bytes.
    static func residentBytes(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kilobytes = try #require(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) })
        return kilobytes * 1_024
    }

    /// One request on a connection of its own from `source`, closed by the server after its answer.
    static func exchange(port: Int, from source: String, _ request: [UInt8]) async throws -> String {
        try await RawConnection.onThread {
            let connection = try RawConnection(port: port, from: source)
            connection.send(request)
            return try connection.receiveUntilClosed()
        }
    }

    @Test(arguments: StoreKind.allCases)
    func clientsThatNeverReadTheirAnswersHoldNoMoreThanTheBudget(_ kind: StoreKind) async throws {
        let budget = 1 << 20
        let stalledClients = 24
        let rows = 48
        let rowBytes = 64 << 10
        // Memory handed back as soon as it is freed, so that the process's size is what it holds:
        // large blocks in mappings of their own (glibc), and none kept in quarantine (AddressSanitizer).
        let sanitizer = ProcessInfo.processInfo.environment["ASAN_OPTIONS"].map { $0 + ":" } ?? ""
        let environment = ["MALLOC_MMAP_THRESHOLD_": "65536", "MALLOC_ARENA_MAX": "2", "ASAN_OPTIONS": sanitizer + "quarantine_size_mb=0"]
        try await Self.serving(kind, flags: ["--max-queued-response-bytes", String(budget)], environment: environment) {
            _, server, url, port, token in
            let changes = (0..<rows).map { row in
                SyncHTTPSecurityTests.insert(
                    key: "n\(row)", columns: ["title": .text("note \(row)"), "body": .text(String(repeating: "x", count: rowBytes))])
            }
            let pushed = try await RawHTTP.send(url, "v1/push", token: token, body: RawHTTP.json(SyncHTTPSecurityTests.push(changes)))
            #expect(pushed.status == 200)
            let whole = try SyncJSON.decoder().decode(PullResponse.self, from: try await RawHTTP.send(
                url, "v1/pull", token: token, body: RawHTTP.json(PullRequest(replica: "reader-0", cursor: 0, limit: 1_000))
            ).body)
            #expect(whole.changes.count == rows && !whole.hasMore)
            // Clients that read their answers, as many at once as will not: the store's caches and the
            // server's pools are as large before as after.
            let warm = try await withThrowingTaskGroup(of: Int.self) { group in
                for reader in 0..<8 {
                    group.addTask {
                        try await RawHTTP.send(
                            url, "v1/pull", token: token,
                            body: RawHTTP.json(PullRequest(replica: "reader-\(reader)", cursor: 0, limit: 1_000))
                        ).body.count
                    }
                }
                return try await group.reduce(0) { max($0, $1) }
            }
            #expect(warm >= rows * rowBytes, "an answer of \(warm) bytes")
            let before = try Self.residentBytes(of: server.pid)

            // From four addresses, clients that ask for the whole log (an answer of 3 MB each, more than
            // the system's socket buffers take, 72 times the budget in all) and never read a byte of it.
            let stalled = try await RawConnection.onThread {
                try (0..<stalledClients).map { index in
                    let connection = try RawConnection(port: port, from: "127.0.0.\(2 + index % 4)", receiveBuffer: 4_096)
                    connection.send(try Self.pull(token: token, replica: "stalled-\(index)"))
                    return connection
                }
            }
            try await waitUntil("every stalled client's answer has begun") { stalled.allSatisfy(\.hasSomethingToRead) }
            let held = try Self.residentBytes(of: server.pid) - before
            // The answers waiting take the budget (or one answer, larger, sent when none other waits),
            // the small ones (503s) at most 64 KB each, and allocations of the moment some megabytes
            // more: 0 to 6 beside the rest of the sync suite, where the server keeps the test's map
            // threshold (each 64 KiB value is mapped, and unmapped when freed). When the server
            // overrode it with its own 128 KiB, the values of two dozen answers built at once stayed
            // behind in the arenas: up to 17 MB beside the suite, 34 on a busier machine. Without a
            // budget, every stalled client holds its answer: 70 to 80 MB.
            // Under a sanitizer (CI names it in BOUTIQUE_TEST_SANITIZER) every allocation carries shadow
            // memory and is freed late: three times the bound (40 MB seen under ThreadSanitizer).
            let sanitized = TestBudget.isSanitized
            let bound = (max(budget, warm) + stalledClients * (64 << 10) + (32 << 20)) * (sanitized ? 3 : 1)
            #expect(held < bound, "the server grew by \(held >> 20) MB with \(stalledClients) readers stalled (bound \(bound >> 20) MB)")

            // A device keeping up is still served: its push, and its pull of what is new.
            let latest = try await RawHTTP.send(
                url, "v1/push", token: token,
                body: RawHTTP.json(SyncHTTPSecurityTests.push([SyncHTTPSecurityTests.insert(key: "new")], replica: "device-2")))
            #expect(latest.status == 200, "\(String(decoding: latest.body, as: UTF8.self))")
            let response = try SyncJSON.decoder().decode(PullResponse.self, from: try await RawHTTP.send(
                url, "v1/pull", token: token, body: RawHTTP.json(PullRequest(replica: "reader-0", cursor: whole.nextCursor, limit: 1_000))
            ).body)
            #expect(response.changes.map(\.change.key) == [.text("new")])
            withExtendedLifetime(stalled) {}
        }
    }

    @Test(arguments: StoreKind.allCases)
    func slowConnectionsFillingTheirBudgetDoNotStopARequestSentAtOnce(_ kind: StoreKind) async throws {
        // 24 connections in all, at most 8 unfinished: the slow ones can take no more than those.
        let flags = [
            "--connection-limit", "24", "--unfinished-request-limit", "8", "--unfinished-requests-per-address", "4",
            "--request-deadline", "600s",
        ]
        try await Self.serving(kind, flags: flags) { _, _, _, port, token in
            // From six addresses, 24 connections that start a request and never finish it.
            let slow = try await RawConnection.onThread {
                try (0..<24).map { index in
                    let connection = try RawConnection(port: port, from: "127.0.0.\(2 + index % 6)")
                    connection.send("POST /v1/pull HTTP/1.1\r\nHost: sync\r\nX-Slow: ")
                    return connection
                }
            }
            // Once a slow connection has been unfinished for a second, it gives way to one whose
            // request comes whole: from an address of its own, and from an address at its share. (The
            // server takes connections in order: it has seen every slow one by the first answer.)
            try await Task.sleep(for: .milliseconds(1_500))
            let health = try await Self.exchange(
                port: port, from: "127.0.0.20", Array("GET /v1/health HTTP/1.1\r\nHost: sync\r\nConnection: close\r\n\r\n".utf8))
            #expect(health.hasPrefix("HTTP/1.1 200"), "\(health.prefix(200))")
            let open = slow.filter { !$0.isClosedByServer }.count
            #expect(open <= 8, "\(open) of the slow connections are open")
            for source in ["127.0.0.1", "127.0.0.2"] {
                let answer = try await Self.exchange(
                    port: port, from: source, try Self.pull(token: token, replica: "device-\(source)", closing: true))
                #expect(answer.hasPrefix("HTTP/1.1 200"), "from \(source): \(answer.prefix(300))")
            }
            withExtendedLifetime(slow) {}
        }
    }

    @Test(arguments: StoreKind.allCases)
    func moreThanSixtyFourLongPollsFromOneAddressAreAllHeld(_ kind: StoreKind) async throws {
        let polls = 100
        try await Self.serving(kind, flags: ["--max-wait", "600s"]) { _, _, url, port, token in
            // 100 devices behind one address (a NAT), each waiting on a long poll.
            let waiting = try await RawConnection.onThread {
                try (0..<polls).map { index in
                    let connection = try RawConnection(port: port, from: "127.0.0.3", timeout: .seconds(120))
                    connection.send(try Self.pull(token: token, replica: "poll-\(index)", wait: 600_000, closing: true))
                    return connection
                }
            }
            // The server has taken (or refused) every one of them once this answer comes.
            let health = try await Self.exchange(
                port: port, from: "127.0.0.4", Array("GET /v1/health HTTP/1.1\r\nHost: sync\r\nConnection: close\r\n\r\n".utf8))
            #expect(health.hasPrefix("HTTP/1.1 200"), "\(health.prefix(200))")
            let refused = waiting.filter(\.isClosedByServer).count
            #expect(refused == 0, "\(refused) of \(polls) long polls from one address were closed")
            // One push wakes every one of them with the change.
            let pushed = try await RawHTTP.send(
                url, "v1/push", token: token, body: RawHTTP.json(SyncHTTPSecurityTests.push([SyncHTTPSecurityTests.insert(key: "wake")])))
            #expect(pushed.status == 200)
            let answers = try await RawConnection.onThread { try waiting.map { try $0.receiveUntilClosed() } }
            let woken = answers.filter { $0.hasPrefix("HTTP/1.1 200") && $0.contains("wake") }.count
            #expect(woken == polls, "\(woken) of \(polls) long polls were answered with the change")
        }
    }
}
#endif
