// The HTTP front end is part of the package where GNU libmicrohttpd is installed; so are its tests.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSync
import BoutiqueSyncHTTP
import BoutiqueSyncServer
import Foundation
import Testing

/// Devices and the server over real HTTP on 127.0.0.1, in one process.
@Suite struct SyncHTTPServerTests {
    @Test func twoDevicesConvergeThroughTheHTTPServer() async throws {
        let server = try await HTTPTestServer()
        let a = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let b = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let syncA = try await BoutiqueSync(database: a, tables: ["note", "tag"], server: try server.transport(user: "ana"))
        let syncB = try await BoutiqueSync(database: b, tables: ["note", "tag"], server: try server.transport(user: "bo"))

        try await a.write { conn in
            try conn.execute("INSERT INTO note(id, title, body, rank) VALUES ('n1', 'Groceries', 'milk', 1)")
            try conn.execute("INSERT INTO tag(id, noteID, label) VALUES ('t1', 'n1', 'home')")
        }
        #expect(try await syncA.synchronize().pushed == 2)
        #expect(try await syncB.synchronize().applied == 2)
        try await b.write { conn in try conn.execute("UPDATE note SET body = 'milk, eggs' WHERE id = 'n1'") }
        try await a.write { conn in try conn.execute("UPDATE note SET title = 'Shopping' WHERE id = 'n1'") }
        _ = try await syncB.synchronize()
        _ = try await syncA.synchronize()
        _ = try await syncB.synchronize()
        #expect(try await a.rows("note") == [["n1", "Shopping", "milk, eggs", "1"]])
        #expect(try await b.rows("note") == [["n1", "Shopping", "milk, eggs", "1"]])
        #expect(try await b.rows("tag") == [["t1", "n1", "home"]])
        await a.close()
        await b.close()
        await server.stop()
    }

    @Test func aLongPollingPullIsWokenByAnotherDevicesPush() async throws {
        // Polls of five minutes: the row can only arrive within the wait below (a minute at most) if
        // the push woke the poll.
        let server = try await HTTPTestServer(options: SyncHTTPOptions(maximumWaitMilliseconds: 300_000))
        let a = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let b = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let syncA = try await BoutiqueSync(database: a, tables: ["note"], server: try server.transport())
        let syncB = try await BoutiqueSync(
            database: b, tables: ["note"], server: try server.transport(), options: SyncOptions(pullWait: .seconds(300)))
        _ = try await syncB.synchronize()
        syncB.start()
        #expect(try await Self.inFlight(server.http), "B's pull is waiting on the server")
        try await Task.sleep(for: .milliseconds(300))  // past its first round, into the long poll
        try await a.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'Hello')") }
        _ = try await syncA.synchronize()
        var rows: [[String]] = []
        let deadline = ContinuousClock.now + .seconds(syncHangDeadline(seconds: 10))
        while rows.isEmpty, ContinuousClock.now < deadline {
            rows = try await b.rows("note")
            if rows.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(rows == [["n1", "Hello", "NULL", "NULL"]], "woken by the push, not by the poll's timeout")
        await syncB.stop()
        await a.close()
        await b.close()
        await server.stop()
    }

    @Test func tenantsNeverSeeEachOthersRows() async throws {
        let server = try await HTTPTestServer()
        let a = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let other = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let syncA = try await BoutiqueSync(database: a, tables: ["note"], server: try server.transport(tenant: "acme"))
        let syncOther = try await BoutiqueSync(database: other, tables: ["note"], server: try server.transport(tenant: "globex"))
        try await a.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('secret', 'Acme only')") }
        _ = try await syncA.synchronize()
        #expect(try await syncOther.synchronize().applied == 0)
        #expect(try await other.rows("note").isEmpty)

        let globex = try server.token(tenant: "globex")
        let pull = try await RawHTTP.send(
            server.http.url, "v1/pull", token: globex, body: RawHTTP.json(PullRequest(replica: "r", cursor: 0, limit: 100)))
        let pulled = try SyncJSON.decoder().decode(PullResponse.self, from: pull.body)
        #expect(pull.status == 200 && pulled.changes.isEmpty)
        let snapshot = try await RawHTTP.send(
            server.http.url, "v1/snapshot", token: globex, body: RawHTTP.json(SnapshotRequest(replica: "r", after: nil, limit: 100)))
        #expect(try SyncJSON.decoder().decode(SnapshotResponse.self, from: snapshot.body).rows.isEmpty)
        // Naming acme's tenant in the path with globex's token is refused.
        let named = try await RawHTTP.send(
            server.http.url, "v1/tenants/acme/pull", token: globex, body: RawHTTP.json(PullRequest(replica: "r", cursor: 0, limit: 100)))
        #expect(named.status == 403)
        #expect(named.errorBody?.error.code == "forbidden")
        await a.close()
        await other.close()
        await server.stop()
    }

    @Test func theTransportRetriesThenReportsTheServerUnavailable() async throws {
        // A port nobody listens on: every try fails to connect.
        let probe = try await HTTPTestServer()
        let url = probe.http.url
        let token = try probe.token()
        await probe.stop()
        let db = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let transport = HTTPSyncTransport(
            url: url, token: token, retry: .init(attempts: 3, initialDelay: .milliseconds(10), maximumDelay: .milliseconds(20)))
        let sync = try await BoutiqueSync(database: db, tables: ["note"], server: transport)
        try await db.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'Offline')") }
        await #expect(throws: BoutiqueError.self) { _ = try await sync.synchronize() }
        #expect(await sync.status.isOffline, "the status says the device is offline")
        #expect(await sync.status.pendingCount == 1, "nothing is lost: the change waits to be pushed")
        await db.close()
    }

    @Test func shutdownAnswersWaitingPollsAndStopsListening() async throws {
        let server = try await HTTPTestServer()
        let token = try server.token()
        let url = server.http.url
        let waiting = Task {
            try await RawHTTP.send(
                url, "v1/pull", token: token,
                body: RawHTTP.json(PullRequest(replica: "r", cursor: 0, limit: 10, waitMilliseconds: 20_000)))
        }
        #expect(try await Self.inFlight(server.http), "the poll reached the server")
        try await Task.sleep(for: .milliseconds(100))  // and waits there
        // A grace period far longer than any answer takes: a poll cut off at its end would get 503.
        await server.http.shutdown(gracePeriod: .seconds(syncHangDeadline(seconds: 30)))
        let answer = try await waiting.value
        #expect(answer.status == 200, "the waiting poll got its (empty) answer before the grace period ended")
        await #expect(throws: (any Error).self) { _ = try await RawHTTP.send(url, "v1/health", method: "GET") }
        await server.store.close()
    }

    /// A store whose transactions take `delay` first: a request still running when the grace period ends.
    struct SlowStore: SyncStore {
        let base: SQLiteSyncStore
        let delay: Duration
        func transaction<T: Sendable>(tenant: String, _ body: @Sendable (any SyncStoreTransaction) throws -> T) async throws -> T {
            try await Task.sleep(for: delay)
            return try await base.transaction(tenant: tenant, body)
        }
    }

    @Test func aRequestOutlastingTheGracePeriodIsAnswered503AndTheServerStops() async throws {
        let base = try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL())
        let signer = try SyncTokenSigner(secret: HTTPTestServer.secret)
        let captured = CapturedLog()
        let http = try SyncHTTPServer(
            server: SyncServer(store: SlowStore(base: base, delay: .seconds(300))), signer: signer, log: captured.log())
        // An hour: a sanitized run took over a minute to reach the handler, and the token had expired (401).
        let token = try signer.token(tenant: "acme", user: "ana", expiresAt: Date().addingTimeInterval(3_600))
        let url = http.url
        let slow = Task {
            try await RawHTTP.send(url, "v1/snapshot", token: token, body: RawHTTP.json(SnapshotRequest(replica: "r", after: nil, limit: 10)))
        }
        #expect(try await Self.inFlight(http), "the request reached the server")
        let started = ContinuousClock.now
        await http.shutdown(gracePeriod: .milliseconds(200))
        // Well under the handler's five minutes: the grace period and the moment given to send the 503.
        #expect(ContinuousClock.now - started < .seconds(syncHangDeadline(seconds: 10)), "shutdown waited for the slow handler")
        let answer = try await slow.value
        #expect(answer.status == 503)
        #expect(answer.errorBody?.error.reason.contains("shutting down") == true)
        // The operator hears of it: the log says how many requests the grace period cut off.
        #expect(captured.all.contains { $0.contains("1 requests still running after the grace period were answered 503") })
        await base.close()
    }

    /// Waits (up to ``syncHangDeadline(seconds:)``) until the server has a request in flight.
    static func inFlight(_ http: SyncHTTPServer) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(syncHangDeadline(seconds: 10))
        while http.requestsInFlight == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        return http.requestsInFlight > 0
    }
}
#endif
