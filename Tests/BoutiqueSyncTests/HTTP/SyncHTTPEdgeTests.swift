// The HTTP front end is part of the package where GNU libmicrohttpd is installed; so are its tests.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSQLite
import BoutiqueSync
import BoutiqueSyncHTTP
import BoutiqueSyncServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The lines a ``SyncRequestLog`` wrote, kept for a test to read.
final class CapturedLog: Sendable {
    private let lines = Lock<[String]>([])

    func log(_ format: SyncRequestLog.Format = .text) -> SyncRequestLog {
        SyncRequestLog(format: format) { line in self.lines.withLock { $0.append(line) } }
    }

    var all: [String] { lines.withLock { $0 } }

    /// Waits (generously) for a line containing every one of `parts`: a request's line is written as
    /// it completes, just after its response is sent.
    func line(containing parts: String...) async throws -> String? {
        let deadline = ContinuousClock.now + .seconds(syncHangDeadline(seconds: 10))
        while ContinuousClock.now < deadline {
            if let line = all.first(where: { line in parts.allSatisfy { line.contains($0) } }) { return line }
            try await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }
}

/// A store that fails every transaction the way a database does: with a message naming its host,
/// its statement and the password it was reached with.
struct FailingSyncStore: SyncStore {
    struct Failure: Error, CustomStringConvertible {
        var description: String {
            "could not connect to server at db.internal:5432 (password=hunter2-SECRET) SQLSTATE 23505 on INSERT INTO boutique_sync_log"
        }
    }

    func transaction<T: Sendable>(tenant: String, _ body: @Sendable (any SyncStoreTransaction) throws -> T) async throws -> T {
        throw Failure()
    }
}

/// What a client can do to the server's connections and to its framing, and what the server tells it
/// and its log.
@Suite struct SyncHTTPEdgeTests {
    /// A request from `source`, over a connection of its own; everything the server answered.
    static func exchange(port: Int, from source: String = "127.0.0.1", _ request: String) async throws -> String {
        try await RawConnection.onThread {
            let connection = try RawConnection(port: port, from: source)
            connection.send(request)
            return try connection.receiveUntilClosed()
        }
    }

    static func health(port: Int, from source: String) async throws -> String {
        try await exchange(port: port, from: source, "GET /v1/health HTTP/1.1\r\nHost: sync\r\nConnection: close\r\n\r\n")
    }

    /// How many HTTP responses `answer` holds.
    static func responses(_ answer: String) -> Int { answer.components(separatedBy: "HTTP/1.1 ").count - 1 }

    @Test func oneAddressHoldingManyConnectionsCannotStarveAnother() async throws {
        let server = try await HTTPTestServer(
            options: SyncHTTPOptions(connectionLimit: 40, connectionsPerAddress: 8, requestDeadline: .seconds(1_800)))
        let port = try #require(server.http.url.port)
        // 60 connections from 127.0.0.1 each start a request and never finish it.
        let slow = try await RawConnection.onThread {
            try (0..<60).map { _ in
                let connection = try RawConnection(port: port, from: "127.0.0.1")
                connection.send("POST /v1/pull HTTP/1.1\r\nHost: sync\r\n")
                return connection
            }
        }
        // They go on sending a byte now and then, as slow clients do: the server drops a connection
        // silent for 120 s, which a sanitized run's stalls once let happen to all of them.
        let dribbling = RawConnection.dribble(slow, every: .seconds(5))
        defer { dribbling.stop() }
        // Another address is still served, at once (the slow ones hold their connections meanwhile).
        let answer = try await Self.health(port: port, from: "127.0.0.2")
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(200))")
        // The slow address got its share and no more: the others were closed as they came (seen as the
        // closes arrive: a loaded machine once took longer than a fixed pause).
        let deadline = ContinuousClock.now + .seconds(syncHangDeadline(seconds: 10))
        while slow.filter({ !$0.isClosedByServer }).count > 8, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        let open = slow.filter { !$0.isClosedByServer }.count
        #expect(open == 8, "\(open) of the slow connections are open")
        withExtendedLifetime(slow) {}
        await server.stop()
    }

    @Test func aConnectionDribblingItsHeadOrBodyIsClosedAtTheDeadline() async throws {
        let log = CapturedLog()
        let server = try await HTTPTestServer(options: SyncHTTPOptions(requestDeadline: .seconds(1)), log: log.log())
        let port = try #require(server.http.url.port)
        let token = try server.token()
        let body = Array(try RawHTTP.json(PullRequest(replica: "slow", cursor: 0, limit: 1)))
        let heads = [
            // A head that would take a minute at a byte every 100 ms.
            "POST /v1/pull HTTP/1.1\r\nHost: sync\r\nX-Padding: " + String(repeating: "a", count: 600) + "\r\n\r\n",
            // A whole head, then a body a byte every 100 ms.
            "POST /v1/pull HTTP/1.1\r\nHost: sync\r\nAuthorization: Bearer \(token)\r\nContent-Length: \(body.count + 600)\r\n\r\n",
        ]
        for (index, head) in heads.enumerated() {
            let sentBeforeClosing = try await RawConnection.onThread { () -> Int in
                let connection = try RawConnection(port: port)
                let bytes = index == 0 ? Array(head.utf8) : Array(head.utf8) + body + [UInt8](repeating: 32, count: 600)
                let start = index == 0 ? 0 : head.utf8.count
                if start > 0 { connection.send(Array(bytes[..<start])) }
                for offset in start..<bytes.count {
                    guard !connection.isClosedByServer, connection.send([bytes[offset]]) else { return offset }
                    Thread.sleep(forTimeInterval: 0.1)
                }
                return bytes.count
            }
            let total = index == 0 ? head.utf8.count : head.utf8.count + body.count + 600
            #expect(sentBeforeClosing < total, "the connection stayed open while the client dribbled its \(index == 0 ? "head" : "body")")
        }
        #expect(try await log.line(containing: "request-timeout", "client=127.0.0.1") != nil, "\(log.all)")
        #expect(try await SyncHTTPSecurityTests.stillServing(server))
        await server.stop()
    }

    @Test func aLongPollOutlastsTheRequestDeadline() async throws {
        let server = try await HTTPTestServer(options: SyncHTTPOptions(requestDeadline: .seconds(1)))
        let started = ContinuousClock.now
        let answer = try await RawHTTP.send(
            server.http.url, "v1/pull", token: try server.token(),
            body: RawHTTP.json(PullRequest(replica: "waiting", cursor: 0, limit: 10, waitMilliseconds: 2_500)))
        #expect(answer.status == 200)
        #expect(ContinuousClock.now - started >= .seconds(2), "the pull waited its whole wait, past the request deadline")
        await server.stop()
    }

    @Test(arguments: [
        ("two Content-Length", "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{} ", "400"),
        ("Content-Length with Transfer-Encoding", "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", "400"),
        ("unknown transfer coding", "Transfer-Encoding: gzip\r\n\r\n{}", "501"),
        ("two transfer codings", "Transfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", "501"),
    ])
    func ambiguousFramingGetsOneAnswerAndTheConnectionClosed(label: String, framing: String, status: String) async throws {
        let server = try await HTTPTestServer()
        let port = try #require(server.http.url.port)
        let token = try server.token()
        // A second request follows on the same connection: it must never be read as one.
        let request = "POST /v1/pull HTTP/1.1\r\nHost: sync\r\nAuthorization: Bearer \(token)\r\n" + framing
            + "GET /v1/health HTTP/1.1\r\nHost: sync\r\n\r\n"
        let answer = try await Self.exchange(port: port, request)
        #expect(answer.hasPrefix("HTTP/1.1 \(status)"), "\(label): \(answer.prefix(300))")
        #expect(Self.responses(answer) == 1, "\(label): \(answer)")
        #expect(answer.contains("Connection: close"), "\(label)")
        #expect(try await SyncHTTPSecurityTests.stillServing(server))
        await server.stop()
    }

    /// A Content-Length that is not a number is refused by libmicrohttpd itself, before the server
    /// sees the request: answered 400, the connection closed, and what follows never read as a request.
    /// (libmicrohttpd 0.9.x writes that answer's head twice; 1.0 writes it once. No callback of 0.9.x
    /// runs between reading the head and that answer, so the server cannot answer in its place.) The
    /// request still has its line in the log.
    @Test(arguments: ["2x", "-1", "abc", "5, 5"])
    func aContentLengthThatIsNotANumberIsRefusedLoggedAndTheRestNeverRead(_ length: String) async throws {
        let log = CapturedLog()
        let server = try await HTTPTestServer(log: log.log())
        let port = try #require(server.http.url.port)
        let answer = try await Self.exchange(
            port: port,
            "POST /v1/pull HTTP/1.1\r\nHost: sync\r\nContent-Length: \(length)\r\n\r\nGET /v1/health HTTP/1.1\r\nHost: sync\r\n\r\n")
        #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(300))")
        #expect(!answer.contains("200 OK") && !answer.contains("protocolVersion"), "\(answer)")
        #expect(try await log.line(containing: "request ", "status=400", "client=127.0.0.1") != nil, "\(log.all)")
        #expect(try await SyncHTTPSecurityTests.stillServing(server))
        await server.stop()
    }

    /// A Content-Length of digits past the largest body a server can hold (2^63 and more, which
    /// libmicrohttpd reads as a length up to 2^64 - 1 and would wait for) is answered at once: one 400,
    /// the connection closed.
    @Test(arguments: ["9223372036854775808", "18446744073709551615", "9999999999999999999"])
    func aContentLengthPastTheLargestNumberGetsOne400(_ length: String) async throws {
        let server = try await HTTPTestServer()
        let port = try #require(server.http.url.port)
        let token = try server.token()
        let answer = try await Self.exchange(
            port: port,
            "POST /v1/push HTTP/1.1\r\nHost: sync\r\nAuthorization: Bearer \(token)\r\nContent-Length: \(length)\r\n\r\n{}")
        #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(300))")
        #expect(answer.contains("Content-Length is not a number of bytes"), "\(answer)")
        #expect(Self.responses(answer) == 1 && answer.contains("Connection: close"), "\(answer)")
        #expect(try await SyncHTTPSecurityTests.stillServing(server))
        await server.stop()
    }

    /// A path holding a NUL byte, sent as it is or as `%00`, is refused rather than served as the part
    /// before it (libmicrohttpd keeps the path as a C string); so is another control character.
    @Test(arguments: ["/v1/health%00.json", "/v1/health\u{0}.json", "/v1/pull%00", "/v1/pu\u{0}ll", "/v1/health%0a"])
    func aPathWithANULByteOrAControlCharacterIsRefused(_ path: String) async throws {
        let log = CapturedLog()
        let server = try await HTTPTestServer(log: log.log())
        let port = try #require(server.http.url.port)
        let answer = try await Self.exchange(port: port, "GET \(path) HTTP/1.1\r\nHost: sync\r\nConnection: close\r\n\r\n")
        #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(300))")
        #expect(answer.contains(path.contains("%0a") ? "control character" : "NUL byte"), "\(answer)")
        #expect(!answer.contains("protocolVersion") && Self.responses(answer) == 1, "\(answer)")
        #expect(!log.all.joined().contains("\u{0}"), "a NUL never reaches the log")
        let escaped = path.contains("%0a") ? "%0a" : "%00"
        #expect(try await log.line(containing: "status=400", escaped) != nil, "the log shows it escaped: \(log.all)")
        let plain = try await Self.exchange(port: port, "GET /v1/health HTTP/1.1\r\nHost: sync\r\nConnection: close\r\n\r\n")
        #expect(plain.hasPrefix("HTTP/1.1 200"), "\(plain.prefix(300))")
        await server.stop()
    }

    /// Requests libmicrohttpd answers itself, which no handler sees, are in the log with their status.
    @Test func aHeadTooLargeForTheConnectionIsLogged() async throws {
        let log = CapturedLog()
        let server = try await HTTPTestServer(log: log.log(.json))
        let port = try #require(server.http.url.port)
        let refused = try await Self.exchange(
            port: port, "GET /v1/health HTTP/1.1\r\nHost: sync\r\nX-Padding: \(String(repeating: "p", count: 9_000))\r\n\r\n")
        #expect(refused.hasPrefix("HTTP/1.1 431"), "\(refused.prefix(300))")
        let line = try #require(try await log.line(containing: "\"status\":431"), "\(log.all)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["client"] as? String == "127.0.0.1" && object["event"] as? String == "request")
        await server.stop()
    }

    @Test func aHeaderHidingANULByteIsRefused() async throws {
        let server = try await HTTPTestServer()
        let port = try #require(server.http.url.port)
        let token = try server.token()
        let body = String(decoding: try RawHTTP.json(PullRequest(replica: "r", cursor: 0, limit: 1)), as: UTF8.self)
        func request(_ authorization: String, lineEnd: String = "\r\n") -> String {
            ["POST /v1/pull HTTP/1.1", "Host: sync", "Authorization: \(authorization)", "Content-Length: \(body.utf8.count)",
             "Connection: close", ""].joined(separator: lineEnd) + lineEnd + body
        }
        let hidden = try await Self.exchange(port: port, request("Bearer \(token)\u{0}junk"))
        #expect(hidden.hasPrefix("HTTP/1.1 400"), "\(hidden.prefix(300))")
        #expect(hidden.contains("NUL"))
        // The same request without the NUL, with CR LF or bare LF line ends, is served.
        let plain = try await Self.exchange(port: port, request("Bearer \(token)"))
        #expect(plain.hasPrefix("HTTP/1.1 200"), "\(plain.prefix(300))")
        let bareLineFeeds = try await Self.exchange(port: port, request("Bearer \(token)", lineEnd: "\n"))
        #expect(bareLineFeeds.hasPrefix("HTTP/1.1 200"), "\(bareLineFeeds.prefix(300))")
        await server.stop()
    }

    /// A request's head must fit the connection's 8 KiB of memory: a longer one is answered 431 and
    /// closed, before the server sees it; a head of 4 KiB (a long token, many headers) is served.
    @Test func aRequestHeadLargerThanTheConnectionsMemoryIsRefused() async throws {
        let server = try await HTTPTestServer()
        let port = try #require(server.http.url.port)
        let token = try server.token()
        let body = String(decoding: try RawHTTP.json(PullRequest(replica: "r", cursor: 0, limit: 1)), as: UTF8.self)
        func request(padding: Int) -> String {
            ["POST /v1/pull HTTP/1.1", "Host: sync", "Authorization: Bearer \(token)", "X-Padding: \(String(repeating: "p", count: padding))",
             "Content-Length: \(body.utf8.count)", "Connection: close", "", body].joined(separator: "\r\n")
        }
        let served = try await Self.exchange(port: port, request(padding: 4_096))
        #expect(served.hasPrefix("HTTP/1.1 200"), "\(served.prefix(300))")
        let refused = try await Self.exchange(port: port, request(padding: 9_000))
        #expect(refused.hasPrefix("HTTP/1.1 431"), "\(refused.prefix(300))")
        #expect(!refused.contains("protocolVersion"))
        #expect(try await SyncHTTPSecurityTests.stillServing(server))
        await server.stop()
    }

    @Test func aStoreFailureSaysARequestIDAndLogsTheErrorWithIt() async throws {
        let log = CapturedLog()
        let signer = try SyncTokenSigner(secret: HTTPTestServer.secret)
        let http = try SyncHTTPServer(server: SyncServer(store: FailingSyncStore()), signer: signer, port: 0, log: log.log())
        var request = URLRequest(url: http.url.appendingPathComponent("v1/pull"))
        request.httpMethod = "POST"
        request.httpBody = try RawHTTP.json(PullRequest(replica: "r", cursor: 0, limit: 1))
        let token = try signer.token(tenant: "acme", user: "ana", expiresAt: Date().addingTimeInterval(600))
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.timeoutInterval = RawHTTP.hangTimeout
        let (data, response) = try await URLSession.shared.data(for: request)
        let answer = try #require(response as? HTTPURLResponse)
        #expect(answer.statusCode == 503)
        let id = try #require(answer.value(forHTTPHeaderField: "X-Request-Id"))
        #expect(id.count == 16)
        let text = String(decoding: data, as: UTF8.self)
        for secret in ["hunter2", "db.internal", "5432", "SQLSTATE", "INSERT", "boutique_sync_log"] {
            #expect(!text.contains(secret), "the 503 shows '\(secret)': \(text)")
        }
        #expect(text.contains(id), "\(text)")
        let logged = try #require(try await log.line(containing: "store-failure", id))
        #expect(logged.contains("hunter2-SECRET") && logged.contains("db.internal:5432"))
        #expect(try await log.line(containing: "request ", "status=503", "id=\(id)") != nil)
        await http.shutdown(gracePeriod: .seconds(2))
    }

    @Test func everyRequestAndRefusedTokenHasALogLineInText() async throws {
        let log = CapturedLog()
        let server = try await HTTPTestServer(log: log.log(.text))
        let expired = try server.token(expiresIn: -60)
        let body = try RawHTTP.json(PullRequest(replica: "r", cursor: 0, limit: 1))
        #expect(try await RawHTTP.send(server.http.url, "v1/pull", token: server.token(), body: body).status == 200)
        #expect(try await RawHTTP.send(server.http.url, "v1/pull", token: expired, body: body).status == 401)
        let served = try #require(try await log.line(containing: "request ", "status=200"))
        for field in ["client=127.0.0.1", "method=POST", "path=/v1/pull", "tenant=acme", "user=ana", "in=\(body.count)", "out=", "ms=", "id="] {
            #expect(served.contains(field), "\(served) lacks \(field)")
        }
        #expect(served.hasPrefix(String(Date().ISO8601Format().prefix(10))), "starts with the date: \(served)")
        let refused = try #require(try await log.line(containing: "auth-failure"))
        #expect(refused.contains("expired") && refused.contains("client=127.0.0.1") && refused.contains("path=/v1/pull"))
        #expect(!log.all.joined().contains(expired), "a token is never logged")
        #expect(try await log.line(containing: "request ", "status=401", "tenant=-") != nil)
        await server.stop()
    }

    @Test func logLinesAreJSONObjectsInJSON() async throws {
        let log = CapturedLog()
        let server = try await HTTPTestServer(log: log.log(.json))
        let body = try RawHTTP.json(PullRequest(replica: "r", cursor: 0, limit: 1))
        #expect(try await RawHTTP.send(server.http.url, "v1/pull", token: server.token(), body: body).status == 200)
        #expect(try await RawHTTP.send(server.http.url, "v1/pull", token: "bq1.forged.token", body: body).status == 401)
        _ = try await log.line(containing: "auth-failure")
        _ = try await log.line(containing: "\"status\":401")
        let objects = try log.all.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        let served = try #require(objects.first { $0["event"] as? String == "request" && $0["status"] as? Int == 200 })
        #expect(served["tenant"] as? String == "acme" && served["user"] as? String == "ana")
        #expect(served["client"] as? String == "127.0.0.1" && served["method"] as? String == "POST" && served["path"] as? String == "/v1/pull")
        #expect(served["in"] as? Int == body.count && (served["out"] as? Int ?? 0) > 0 && served["ms"] != nil && served["time"] is String)
        let refused = try #require(objects.first { $0["event"] as? String == "auth-failure" })
        #expect(refused["reason"] as? String != nil && !(log.all.joined().contains("bq1.forged.token")))
        await server.stop()
    }
}
#endif
