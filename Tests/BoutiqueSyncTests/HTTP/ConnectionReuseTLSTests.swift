// The HTTP front end is part of the package where GNU libmicrohttpd is installed; so are its tests.
#if BOUTIQUE_SYNC_HTTP && os(Linux)
@testable import BoutiqueSync
import BoutiqueSyncHTTP
import BoutiqueSyncServer
import BoutiqueTestSupport
import Foundation
import Synchronization
import Testing

/// On Linux, `https://` requests go through libcurl handles the transport keeps (``LibcurlHandles``):
/// many requests of one device open few connections (and TLS handshakes), a pull waiting on the
/// server and a push at the same time each have their own, and each transport trusts its own
/// authorities however warm another's connections are.
@MainActor @Suite struct ConnectionReuseTLSTests {
    /// An HTTPS server, reached through a relay that counts the connections devices open.
    struct CountedTLSServer {
        let directory: SyncTemporaryDirectory
        let store: SQLiteSyncStore
        let http: SyncHTTPServer
        let relay: HoldingRelay
        let signer: SyncTokenSigner
        let url: URL

        init(maximumWaitMilliseconds: Int = 30_000) async throws {
            directory = try SyncTemporaryDirectory()
            try await TestCertificates.make(in: directory)
            let tls = try SyncHTTPTLS(certificateFile: directory.file("server.pem"), privateKeyFile: directory.file("server.key"))
            store = try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL())
            signer = try SyncTokenSigner(secret: HTTPTestServer.secret)
            http = try SyncHTTPServer(
                server: SyncServer(store: store), signer: signer, options: SyncHTTPOptions(maximumWaitMilliseconds: maximumWaitMilliseconds),
                tls: tls)
            relay = try HoldingRelay(forwardingTo: try #require(http.url.port))
            url = try #require(URL(string: "https://127.0.0.1:\(relay.port)"))
        }

        func transport(authority: String = "ca.pem") throws -> HTTPSyncTransport {
            let token = try signer.token(tenant: "acme", user: "ana", expiresAt: Date().addingTimeInterval(3_600))
            return .http(url, token: token, trust: try SyncServerTrust.certificateAuthority(file: directory.file(authority)))
        }

        /// The requests the server answered, all endpoints together.
        func requestsAnswered() async -> Int {
            await http.metricsText().split(separator: "\n")
                .filter { $0.hasPrefix("boutique_http_requests_total{") }
                .compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
                .reduce(0, +)
        }

        func stop() async {
            relay.stop()
            await http.shutdown(gracePeriod: .seconds(2))
            await store.close()
        }
    }

    @Test func aSyncOfManyRequestsOverHTTPSOpensFewConnections() async throws {
        let server = try await CountedTLSServer()
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let sync = try await BoutiqueSync(database: database, tables: ["note"], server: try server.transport())
        for index in 1...25 {
            try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n\(index)', 'row \(index)')") }
            _ = try await sync.synchronize()
        }
        let requests = await server.requestsAnswered()
        #expect(requests >= 50, "each sync pushes and pulls: \(requests) requests")
        // One connection carries the rounds one after another; a snapshot page asked for while the
        // last one merges may open a second. A connection per request would be \(requests).
        #expect(server.relay.connectionsAccepted <= LibcurlHandles.limit, "\(server.relay.connectionsAccepted) connections for \(requests) requests")
        await sync.stop()
        await database.close()
        await server.stop()
    }

    /// A started device's pull waits on the server while a local write is pushed: the two run at once,
    /// on two handles and two connections, and both get their answers.
    @Test func aPushGoesWhileThePullWaitsOnItsOwnConnection() async throws {
        let server = try await CountedTLSServer(maximumWaitMilliseconds: 600_000)
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let sync = try await BoutiqueSync(
            database: database, tables: ["note"], server: try server.transport(), options: SyncOptions(pullWait: .seconds(600)))
        _ = try await sync.synchronize()
        sync.start()
        try await waitFor("the device's pull waits") { await server.http.metricsText().contains("boutique_long_polls_waiting 1") }
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'while the pull waits')") }
        let reader = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let readerSync = try await BoutiqueSync(database: reader, tables: ["note"], server: try server.transport())
        try await waitFor("the push reached the server") {
            _ = try? await readerSync.synchronize()
            return try await reader.read { conn in try conn.fetchValue("SELECT count(*) FROM note") } == .integer(1)
        }
        #expect(server.relay.connectionsAccepted <= 2 * LibcurlHandles.limit)
        await sync.stop()
        await readerSync.stop()
        await database.close()
        await reader.close()
        await server.stop()
    }

    /// A transport trusting another authority is refused by the server's certificate, even once
    /// another transport's connections to it are open and verified: handles, and the connections
    /// they keep, are each transport's own.
    @Test func eachTransportTrustsOnlyItsOwnAuthorities() async throws {
        let server = try await CountedTLSServer()
        let trusted = try server.transport()
        _ = try await trusted.pull(PullRequest(replica: "r1", cursor: 0, limit: 10, waitMilliseconds: 0))
        _ = try await trusted.pull(PullRequest(replica: "r1", cursor: 0, limit: 10, waitMilliseconds: 0))
        let other = try server.transport(authority: "other-ca.pem")
        await #expect(throws: BoutiqueError.self) {
            _ = try await other.pull(PullRequest(replica: "r2", cursor: 0, limit: 10, waitMilliseconds: 0))
        }
        _ = try await trusted.pull(PullRequest(replica: "r1", cursor: 0, limit: 10, waitMilliseconds: 0))
        await server.stop()
    }

    /// The handles kept are bounded: past ``LibcurlHandles/limit`` idle ones, a handle given back is
    /// closed; handles taken at once are all different.
    @Test func theKeptHandlesAreFewAndNeverSharedAtOnce() throws {
        let handles = LibcurlHandles()
        let taken = (0..<(LibcurlHandles.limit + 3)).map { _ in handles.take() }
        #expect(taken.allSatisfy { $0 != nil })
        #expect(Set(taken.compactMap { $0 }).count == taken.count, "each request holds a handle of its own")
        for handle in taken { handles.give(handle) }
        #expect(handles.idleCount == LibcurlHandles.limit)
        let again = handles.take()
        #expect(taken.contains(again), "a kept handle is taken again")
        handles.give(again)
    }

    /// Waits for `condition`, with a generous deadline only to see a hang.
    private func waitFor(_ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(syncHangDeadline(seconds: 60))
        while try await !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out waiting: \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
#endif
