// The HTTP front end is part of the package where GNU libmicrohttpd is installed; so are its tests.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSQLite
import BoutiqueSync
import BoutiqueSyncHTTP
import BoutiqueSyncServer
import Foundation
import Testing

/// Refusals over HTTP arrive typed, and an expired token is renewed through the app, not by tearing
/// sync down.
@MainActor @Suite struct SyncCredentialsTests {
    @Test func anExpiredTokenIsRenewedThroughTheAppAndTheRequestSentOnceMore() async throws {
        let server = try await HTTPTestServer()
        let expired = try server.token(expiresIn: -60)
        let fresh = try server.token()
        let asked = Lock<[String?]>([])
        let transport: HTTPSyncTransport = .http(server.http.url, credentials: { rejected in
            asked.withLock { $0.append(rejected) }
            return rejected == nil ? expired : fresh
        })
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let sync = try await BoutiqueSync(database: database, tables: ["note"], server: transport)
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'renewed')") }
        let report = try await sync.synchronize()
        #expect(report.pushed == 1)
        #expect(asked.withLock { $0 } == [nil, expired], "asked for a first token, then for one to replace the expired one")
        #expect(transport.token == fresh)
        _ = try await sync.synchronize()
        #expect(asked.withLock { $0.count } == 2, "the fresh token is kept")
        await database.close()
        await server.stop()
    }

    /// A token with a line break would carry a header of its own onto the wire: it is refused before
    /// anything is sent.
    @Test func aTokenWithALineBreakIsRefusedBeforeAnythingIsSent() async throws {
        let server = try await HTTPTestServer()
        let injected = try server.token() + "\r\nX-Injected: 1"
        let transport: HTTPSyncTransport = .http(server.http.url, credentials: { _ in injected })
        let request = PullRequest(replica: "r", cursor: 0, limit: 10)
        await #expect {
            _ = try await transport.pull(request)
        } throws: { error in
            guard case BoutiqueError.invalidArgument(let reason) = error else { return false }
            return reason.contains("control character") && !reason.contains("X-Injected")
        }
        await server.stop()
    }

    @Test func refusalsArriveTypedAndAFixedExpiredTokenStopsSync() async throws {
        let server = try await HTTPTestServer(minimumSchemaVersion: 5)
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let expired = try await BoutiqueSync(
            database: database, tables: ["note"], server: .http(server.http.url, token: try server.token(expiresIn: -60)),
            options: SyncOptions(retryInterval: .milliseconds(20)))
        let refusal = await #expect(throws: SyncRefusal.self) { _ = try await expired.synchronize() }
        #expect(refusal?.reason == .unauthorized && refusal?.reason.stopsSync == true)

        // Started, it stops on such a refusal instead of retrying for ever, and says why.
        expired.start()
        let deadline = ContinuousClock.now + .seconds(syncHangDeadline(seconds: 10))
        while ContinuousClock.now < deadline, expired.status.activity != .refused(try #require(refusal)) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(expired.status.activity == .refused(try #require(refusal)))
        await expired.stop()

        let old = try await BoutiqueSync(database: database, tables: ["note"], server: try server.transport())
        let tooOld = await #expect(throws: SyncRefusal.self) { _ = try await old.synchronize() }
        #expect(tooOld?.reason == .appTooOld)
        await database.close()
        await server.stop()
    }
}
#endif
