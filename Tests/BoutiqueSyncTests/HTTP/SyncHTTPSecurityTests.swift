// The HTTP front end is part of the package where GNU libmicrohttpd is installed; so are its tests.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSync
import BoutiqueSyncHTTP
@testable import BoutiqueSyncServer
import Foundation
import Testing

/// What a hostile or broken client can send: each is refused with a 4xx and a reason, nothing is
/// stored, and the server keeps serving.
@Suite struct SyncHTTPSecurityTests {
    static func push(_ changes: [SyncChange], replica: String = "device-1", id: Int64 = 1, schemaVersion: Int = 1) -> PushRequest {
        let stamp = SyncStamp(time: HybridTimestamp(milliseconds: UInt64(Date().timeIntervalSince1970 * 1000)), replica: "writer-1")
        let stamped = changes.map { change -> SyncChange in
            var change = change
            change.stamp = stamp
            return change
        }
        return PushRequest(
            replica: replica, baseTransactionID: 0, baseDigest: nil, schemaVersion: schemaVersion,
            transactions: [SyncTransaction(id: id, stamp: stamp, changes: stamped)])
    }

    static func insert(_ table: String = "note", key: String = "n1", columns: [String: DatabaseValue] = ["title": .text("Hi")]) -> SyncChange {
        SyncChange(
            table: table, key: .text(key), kind: .insert,
            columns: columns.sorted { $0.key < $1.key }.map { SyncColumnValue(name: $0.key, value: $0.value) },
            stamp: SyncStamp(time: HybridTimestamp(rawValue: 0), replica: "writer-1"))
    }

    /// How many changes the tenant's log holds.
    static func logged(_ server: HTTPTestServer, tenant: String = "acme") async throws -> Int64 {
        try await server.store.transaction(tenant: tenant) { try $0.latestSequence() }
    }

    /// The server still answers a good request.
    static func stillServing(_ server: HTTPTestServer) async throws -> Bool {
        let health = try await RawHTTP.send(server.http.url, "v1/health", method: "GET")
        let pull = try await RawHTTP.send(
            server.http.url, "v1/pull", token: try server.token(), body: RawHTTP.json(PullRequest(replica: "probe", cursor: 0, limit: 1)))
        return health.status == 200 && pull.status == 200
    }

    @Test func forgedExpiredAndMissingTokensGet401AndChangeNothing() async throws {
        let server = try await HTTPTestServer()
        let body = try RawHTTP.json(Self.push([Self.insert()]))
        let otherSecret = try SyncTokenSigner(secret: Array("another secret of sixteen bytes or more".utf8))
        let forged = try otherSecret.token(tenant: "acme", user: "ana", expiresAt: Date().addingTimeInterval(3_600))
        let expired = try server.token(expiresIn: -5)
        let good = try server.token()
        // The claims of a good token with another tenant, under the good signature.
        let parts = good.split(separator: ".")
        let altered = try server.token(tenant: "globex").split(separator: ".")[1]
        let spliced = "\(parts[0]).\(altered).\(parts[2])"
        for (label, token) in [("forged", forged), ("expired", expired), ("spliced", spliced), ("garbage", "bq1.x.y"), ("none", nil as String?)] {
            let answer = try await RawHTTP.send(server.http.url, "v1/push", token: token, body: body)
            #expect(answer.status == 401, "\(label)")
            #expect(answer.errorBody?.error.code == "unauthorized", "\(label)")
        }
        let expiredAnswer = try await RawHTTP.send(server.http.url, "v1/pull", token: expired, body: body)
        #expect(expiredAnswer.errorBody?.error.reason.contains("expired") == true)
        #expect(try await Self.logged(server) == 0)
        #expect(try await Self.logged(server, tenant: "globex") == 0)
        #expect(try await Self.stillServing(server))
        await server.stop()
    }

    /// A token signed with the server's secret whose tenant or user has no single spelling (not in
    /// NFC, a newline, empty, too long) is a 401 with the reason: names are compared as bytes, and a
    /// second spelling would be another user to some checks and the same to others.
    @Test func aTokenWhoseNamesHaveNoSingleSpellingGets401() async throws {
        let server = try await HTTPTestServer()
        let body = try RawHTTP.json(Self.push([Self.insert()]))
        for (label, name, says) in SyncNameTests.refusedNames {
            for (tenant, user) in [("acme", name), (name, "ana")] {
                let token = try SyncNameTests.craftedToken(tenant: tenant, user: user, secret: server.secret)
                let answer = try await RawHTTP.send(server.http.url, "v1/push", token: token, body: body)
                #expect(answer.status == 401, "\(label)")
                #expect(answer.errorBody?.error.reason.contains(says) == true, "\(label): \(String(decoding: answer.body, as: UTF8.self))")
            }
        }
        let composed = try SyncNameTests.craftedToken(tenant: "acme", user: SyncNameTests.composed, secret: server.secret)
        #expect(try await RawHTTP.send(server.http.url, "v1/push", token: composed, body: body).status == 200)
        #expect(try await Self.logged(server) == 1, "only the push of the well-named user")
        await server.stop()
    }

    /// A stamp's writer id is kept with every value it wins: one longer than a replica id may be is
    /// refused (it was taken at any length, and stored in the row states past the value limit).
    @Test func aWriterIdLongerThanAReplicaIdGets400() async throws {
        let server = try await HTTPTestServer()
        var request = Self.push([Self.insert()])
        let writer = String(repeating: "w", count: 1 << 20)
        let stamp = SyncStamp(time: request.transactions[0].stamp.time, replica: writer)
        let changes = request.transactions[0].changes.map { change -> SyncChange in
            var change = change
            change.stamp = stamp
            return change
        }
        request.transactions = [SyncTransaction(id: 1, stamp: stamp, changes: changes)]
        let answer = try await RawHTTP.send(server.http.url, "v1/push", token: try server.token(), body: RawHTTP.json(request))
        #expect(answer.status == 400, "\(String(decoding: answer.body.prefix(300), as: UTF8.self))")
        #expect(answer.errorBody?.error.reason.contains("writer id of \(writer.utf8.count) bytes") == true)
        #expect(try await Self.logged(server) == 0)
        await server.stop()
    }

    @Test func malformedTruncatedAndOversizedBodiesGet4xxAndChangeNothing() async throws {
        let server = try await HTTPTestServer(options: SyncHTTPOptions(maximumBodyBytes: 64 * 1024))
        let token = try server.token()
        let good = try RawHTTP.json(Self.push([Self.insert()]))
        let cases: [(String, Data, Int)] = [
            ("empty", Data(), 400),
            ("not JSON", Data("hello".utf8), 400),
            ("truncated", good.prefix(good.count / 2), 400),
            ("wrong shape", Data(#"{"replica": 5}"#.utf8), 400),
            ("bad value tag", Data(String(decoding: good, as: UTF8.self).replacingOccurrences(of: #""t":"s""#, with: #""t":"q""#).utf8), 400),
            ("oversized", Data(repeating: UInt8(ascii: " "), count: 200 * 1024), 413),
        ]
        for (label, body, status) in cases {
            let answer = try await RawHTTP.send(server.http.url, "v1/push", token: token, body: body)
            #expect(answer.status == status, "\(label): \(String(decoding: answer.body, as: UTF8.self))")
            #expect(answer.errorBody != nil, "\(label) has a JSON error body")
        }
        // A delete carrying columns, a key that is an integer, a change twice to one row: refused whole.
        var delete = Self.insert()
        delete.kind = .delete
        var integerKey = Self.insert(key: "n2")
        integerKey.key = .integer(7)
        for (label, request) in [
            ("delete with columns", Self.push([delete])),
            ("integer key", Self.push([integerKey])),
            ("one row twice", Self.push([Self.insert(), Self.insert(columns: ["title": .text("Again")])])),
        ] {
            let answer = try await RawHTTP.send(server.http.url, "v1/push", token: token, body: RawHTTP.json(request))
            #expect(answer.status == 400, "\(label)")
        }
        #expect(try await Self.logged(server) == 0)
        #expect(try await Self.stillServing(server))
        await server.stop()
    }

    /// A client still sending an oversized body (it did not wait for `100 Continue`) reads the 413
    /// and its reason: a body up to a megabyte over the limit is read and dropped before the answer
    /// (answering and closing first would fail the client's next write, and it would never read the
    /// answer). One declared longer still, or whose client waits for `100 Continue`, is answered
    /// before it is sent.
    /// A push's request line and headers, for ``SocketHTTP``: `framing` says how the body is
    /// delimited (`Content-Length: N` or `Transfer-Encoding: chunked`), and may add headers.
    static func pushHead(token: String, framing: String) -> String {
        "POST /v1/push HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: application/json\r\n\(framing)\r\nConnection: close"
    }

    @Test func anOversizedBodyStillBeingSentGetsIts413() async throws {
        let limit = 64 * 1024
        let server = try await HTTPTestServer(options: SyncHTTPOptions(maximumBodyBytes: limit))
        let port = try #require(server.http.url.port)
        let token = try server.token()
        func head(length: Int, expectContinue: Bool = false) -> String {
            Self.pushHead(token: token, framing: "Content-Length: \(length)" + (expectContinue ? "\r\nExpect: 100-continue" : ""))
        }
        let body = [UInt8](repeating: UInt8(ascii: " "), count: limit + 300 * 1024)
        let drained = try await SocketHTTP.exchange(
            port: port, head: head(length: body.count), body: body, pieces: 6, pause: .milliseconds(30))
        #expect(drained.hasPrefix("HTTP/1.1 413"), "\(drained.prefix(200))")
        #expect(drained.contains("tooLarge"))
        let refusedUnread = try await SocketHTTP.exchange(port: port, head: head(length: limit + (2 << 20)), body: [])
        #expect(refusedUnread.hasPrefix("HTTP/1.1 413"), "\(refusedUnread.prefix(200))")
        // Not `100 Continue`: the client would send a body only to have it dropped.
        let refusedBeforeSending = try await SocketHTTP.exchange(port: port, head: head(length: body.count, expectContinue: true), body: [])
        #expect(refusedBeforeSending.hasPrefix("HTTP/1.1 413"), "\(refusedBeforeSending.prefix(200))")
        #expect(try await Self.logged(server) == 0)
        #expect(try await Self.stillServing(server))
        await server.stop()
    }

    /// A body of no declared length (chunked) is read and dropped up to a megabyte over the limit and
    /// answered 413; past that the server stops reading and closes the connection, instead of reading
    /// for as long as the client sends.
    @Test func aChunkedBodyOverTheLimitIsRefusedAndAnEndlessOneCutOff() async throws {
        let limit = 64 * 1024
        let server = try await HTTPTestServer(options: SyncHTTPOptions(maximumBodyBytes: limit))
        let port = try #require(server.http.url.port)
        let head = Self.pushHead(token: try server.token(), framing: "Transfer-Encoding: chunked")
        func chunked(_ length: Int) -> [UInt8] {
            let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 64 * 1024)
            var body: [UInt8] = []
            for _ in 0..<(length / chunk.count) { body += Array("10000\r\n".utf8) + chunk + Array("\r\n".utf8) }
            return body + Array("0\r\n\r\n".utf8)
        }
        let overTheLimit = try await SocketHTTP.exchange(port: port, head: head, body: chunked(limit + 512 * 1024), pieces: 8)
        #expect(overTheLimit.hasPrefix("HTTP/1.1 413"), "\(overTheLimit.prefix(200))")

        let started = ContinuousClock.now
        do {
            let answer = try await SocketHTTP.exchange(port: port, head: head, body: chunked(limit + (4 << 20)), pieces: 64)
            #expect(answer.isEmpty, "an endless body was read to its end: \(answer.prefix(200))")
        } catch let failure as SocketHTTP.Failure {
            // The connection reset under the client's writes or its read.
            #expect([EPIPE, ECONNRESET].contains(failure.code), "\(failure)")
        }
        #expect(ContinuousClock.now - started < .seconds(syncHangDeadline(seconds: 4)), "the client waited for a server that stopped reading")
        // Ended, not left hanging: libmicrohttpd reported the request complete and let go of it.
        try await waitUntil("the cut-off request is no longer in flight") {
            server.http.requestsInFlight == 0
        }
        #expect(try await Self.logged(server) == 0)
        #expect(try await Self.stillServing(server))
        await server.stop()
    }

    /// `Int.max` as the limit means none: the margin added to it for oversized bodies saturates.
    @Test func aServerWithoutABodyLimitTakesBodies() async throws {
        let server = try await HTTPTestServer(options: SyncHTTPOptions(maximumBodyBytes: .max))
        let answer = try await RawHTTP.send(server.http.url, "v1/push", token: try server.token(), body: RawHTTP.json(Self.push([Self.insert()])))
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        #expect(try await Self.logged(server) == 1)
        await server.stop()
    }

    /// Devices of the protocol before spaces get 426 with a reason on every endpoint, and change nothing.
    @Test func aDeviceOfTheProtocolBeforeSpacesIsToldToUpdate() async throws {
        let server = try await HTTPTestServer()
        let token = try server.token()
        var push = Self.push([Self.insert()])
        push.protocolVersion = 1
        let bodies: [(String, Data)] = [
            ("v1/push", try RawHTTP.json(push)),
            ("v1/pull", try RawHTTP.json(PullRequest(replica: "r", cursor: 0, limit: 1, protocolVersion: 1))),
            ("v1/snapshot", try RawHTTP.json(SnapshotRequest(replica: "r", after: nil, limit: 1, protocolVersion: 1))),
            ("v1/members", try RawHTTP.json(MembershipRequest(table: "list", key: .text("l"), protocolVersion: 1))),
        ]
        for (path, body) in bodies {
            let answer = try await RawHTTP.send(server.http.url, path, token: token, body: body)
            #expect(answer.status == 426, "\(path)")
            #expect(answer.errorBody?.error.reason.contains("update the app") == true, "\(path)")
        }
        #expect(try await Self.logged(server) == 0)
        await server.stop()
    }

    @Test func oldProtocolAndOldAppSchemaGet426() async throws {
        let server = try await HTTPTestServer(minimumSchemaVersion: 3)
        let token = try server.token()
        var old = Self.push([Self.insert()], schemaVersion: 5)
        old.protocolVersion = 0
        let oldProtocol = try await RawHTTP.send(server.http.url, "v1/push", token: token, body: RawHTTP.json(old))
        #expect(oldProtocol.status == 426)
        let oldPull = try await RawHTTP.send(
            server.http.url, "v1/pull", token: token, body: RawHTTP.json(PullRequest(replica: "r", cursor: 0, limit: 1, protocolVersion: 99)))
        #expect(oldPull.status == 426)
        #expect(oldPull.errorBody?.error.reason.contains("update the server") == true)
        let oldSchema = try await RawHTTP.send(server.http.url, "v1/push", token: token, body: RawHTTP.json(Self.push([Self.insert()], schemaVersion: 2)))
        #expect(oldSchema.status == 426)
        #expect(oldSchema.errorBody?.error.reason.contains("update the app") == true)
        let unversioned = try await RawHTTP.send(server.http.url, "v0/push", token: token, body: RawHTTP.json(old))
        #expect(unversioned.status == 426)
        #expect(try await Self.logged(server) == 0)
        let accepted = try await RawHTTP.send(server.http.url, "v1/push", token: token, body: RawHTTP.json(Self.push([Self.insert()], schemaVersion: 3)))
        #expect(accepted.status == 200)
        await server.stop()
    }

    @Test func unknownPathsAndMethodsGet404And405() async throws {
        let server = try await HTTPTestServer()
        let token = try server.token()
        #expect(try await RawHTTP.send(server.http.url, "v1/everything", token: token, body: Data("{}".utf8)).status == 404)
        #expect(try await RawHTTP.send(server.http.url, "v1/push", method: "GET", token: token).status == 405)
        #expect(try await RawHTTP.send(server.http.url, "v1/health", method: "DELETE").status == 405)
        #expect(try await Self.stillServing(server))
        await server.stop()
    }

    @Test func theAuthorizationHookRefusesATransactionAloneAndSaysWhich() async throws {
        let server = try await HTTPTestServer(authorize: { user, change in change.table != "invoice" || user == "admin" })
        let mixed = Self.push([Self.insert(), Self.insert("invoice", key: "i1", columns: ["total": .integer(10)])])
        let asAna = try await RawHTTP.send(server.http.url, "v1/push", token: try server.token(user: "ana"), body: RawHTTP.json(mixed))
        #expect(asAna.status == 200, "a refused transaction is handled, not an error of the push")
        let answer = try SyncJSON.decoder().decode(PushResponse.self, from: asAna.body)
        #expect(answer.outcome == .accepted && answer.appliedThrough == 1, "the watermark moved past it: nothing jams")
        let refusal = try #require(answer.refusals?.first)
        #expect(answer.refusals?.count == 1)
        #expect(refusal.transactionID == 1 && refusal.table == "invoice" && refusal.reason == .forbidden)
        #expect(refusal.message.contains("invoice"))
        #expect(refusal.rows.isEmpty && refusal.absentRows.map(\.table).sorted() == ["invoice", "note"],
            "the server's version of every row it touched: none")
        #expect(try await Self.logged(server) == 0, "not even the allowed note of the same transaction was stored")
        let next = Self.push([Self.insert(key: "n2")], id: 2)
        var following = next
        following.baseTransactionID = 1
        following.baseDigest = answer.digest
        let after = try await RawHTTP.send(server.http.url, "v1/push", token: try server.token(user: "ana"), body: RawHTTP.json(following))
        #expect(after.status == 200)
        #expect(try SyncJSON.decoder().decode(PushResponse.self, from: after.body).refusals == nil)
        #expect(try await Self.logged(server) == 1, "the next transaction went through")
        let asAdmin = try await RawHTTP.send(
            server.http.url, "v1/push", token: try server.token(user: "admin"), body: RawHTTP.json(Self.push(mixed.transactions[0].changes, replica: "admin-device")))
        #expect(asAdmin.status == 200)
        #expect(try await Self.logged(server) == 3)
        await server.stop()
    }

    @Test func hostileTableColumnAndTenantNamesAreStoredAsData() async throws {
        let server = try await HTTPTestServer()
        let hostileTable = #"note"); DROP TABLE boutique_sync_server_log; --"#
        let hostileColumn = #"title" = 1; DELETE FROM boutique_sync_server_row; --"#
        let hostileTenant = #"acme'; DROP TABLE boutique_sync_server_tenant; --"#
        let token = try server.token(tenant: hostileTenant)
        let push = Self.push([Self.insert(hostileTable, key: "k'1", columns: [hostileColumn: .text("v\u{0}alue")])])
        let answer = try await RawHTTP.send(server.http.url, "v1/push", token: token, body: RawHTTP.json(push))
        #expect(answer.status == 200)
        let pull = try await RawHTTP.send(
            server.http.url, "v1/pull", token: token, body: RawHTTP.json(PullRequest(replica: "other", cursor: 0, limit: 10)))
        let pulled = try SyncJSON.decoder().decode(PullResponse.self, from: pull.body)
        // Stored as given, but lowercased as every table and column name is (a table is one table in
        // any case).
        #expect(pulled.changes.map(\.change.table) == [hostileTable.lowercased()])
        #expect(pulled.changes.first?.change.columns == [SyncColumnValue(name: hostileColumn.lowercased(), value: .text("v\u{0}alue"))])
        #expect(try await Self.logged(server, tenant: hostileTenant) == 1)
        #expect(try await Self.stillServing(server), "the store's tables are all still there")
        await server.stop()
    }
}
#endif
