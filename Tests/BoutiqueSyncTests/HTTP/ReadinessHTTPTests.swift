// The HTTP front end is part of the package where GNU libmicrohttpd is installed; so are its tests.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSQLite
import BoutiqueSync
import BoutiqueSyncHTTP
import BoutiqueSyncServer
import Foundation
import Testing

/// `/readyz` over stores that fail or hang, and how requests are counted in the metrics.
@Suite struct ReadinessHTTPTests {
    /// A store whose identity read fails with a message naming its host, or never ends.
    struct BrokenStore: SyncStore {
        let base: SQLiteSyncStore
        let hangs: Bool

        func transaction<T: Sendable>(tenant: String, _ body: @Sendable (any SyncStoreTransaction) throws -> T) async throws -> T {
            try await base.transaction(tenant: tenant, body)
        }

        func identity() async throws -> String? {
            if hangs { try await Task.sleep(for: .seconds(3_600)) }
            throw BoutiqueError.syncUnavailable(reason: "could not connect to db.internal.example:5432")
        }
    }

    /// A store that counts its identity reads, each held until ``open()`` (and then failing, when it
    /// `fails`).
    final class GatedStore: SyncStore, Sendable {
        let base: SQLiteSyncStore
        let fails: Bool
        private let gate = Lock<(isOpen: Bool, reads: Int, waiting: [CheckedContinuation<Void, Never>])>((false, 0, []))

        init(base: SQLiteSyncStore, fails: Bool = false) {
            self.base = base
            self.fails = fails
        }

        var reads: Int { gate.withLock { $0.reads } }

        func transaction<T: Sendable>(tenant: String, _ body: @Sendable (any SyncStoreTransaction) throws -> T) async throws -> T {
            try await base.transaction(tenant: tenant, body)
        }

        func identity() async throws -> String? {
            await withCheckedContinuation { continuation in
                let isOpen = gate.withLock { gate in
                    gate.reads += 1
                    if !gate.isOpen { gate.waiting.append(continuation) }
                    return gate.isOpen
                }
                if isOpen { continuation.resume() }
            }
            if fails { throw BoutiqueError.syncUnavailable(reason: "could not connect to db.internal.example:5432") }
            return "gated"
        }

        func open() {
            let waiting = gate.withLock { gate in
                gate.isOpen = true
                defer { gate.waiting = [] }
                return gate.waiting
            }
            for continuation in waiting { continuation.resume() }
        }
    }

    /// Probes that come while the store is read wait for that read: a flood of probes is one read of
    /// the store, not one each; a read that fails is one store error.
    @Test(arguments: [false, true])
    func probesAtOnceShareOneStoreRead(storeFails: Bool) async throws {
        let base = try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL())
        let store = GatedStore(base: base, fails: storeFails)
        let http = try Self.serve(store)
        let probes = 24
        let answers = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<probes {
                group.addTask {
                    try await SocketHTTP.exchange(port: http.port, head: "GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close", body: [])
                }
            }
            try await waitUntil("every probe is being answered") { http.requestsInFlight == probes && store.reads >= 1 }
            store.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // The read gives up after the probe's timeout (5 s) of real time: on a machine so slow (a
        // sanitizer, other suites) that the probes took longer to arrive, every probe shares that
        // answer instead, which is just as much one read for all.
        let timedOut = answers.first?.contains("did not answer within") == true
        let status = storeFails || timedOut ? "HTTP/1.1 503" : "HTTP/1.1 200"
        #expect(answers.count == probes && answers.allSatisfy { $0.hasPrefix(status) }, "\(answers.first ?? "")")
        #expect(store.reads == 1, "one read for \(probes) probes")
        #expect(await http.metricsText().contains("boutique_store_errors_total \(storeFails || timedOut ? 1 : 0)\n"))
        await http.shutdown()
        await base.close()
    }

    static func serve(_ store: any SyncStore) throws -> SyncHTTPServer {
        try SyncHTTPServer(
            server: SyncServer(store: store), signer: try SyncTokenSigner(secret: HTTPTestServer.secret), port: 0)
    }

    @Test func aFailingStoreIsNotReadyAndItsErrorStaysInTheLog() async throws {
        let base = try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL())
        let http = try Self.serve(BrokenStore(base: base, hangs: false))
        let answer = try await RawHTTP.send(http.url, "readyz", method: "GET")
        #expect(answer.status == 503)
        let body = String(decoding: answer.body, as: UTF8.self)
        #expect(body.contains("the store does not answer") && !body.contains("db.internal"), "\(body)")
        #expect(try await RawHTTP.send(http.url, "healthz", method: "GET").status == 200)
        #expect(await http.metricsText().contains("boutique_store_errors_total 1\n"))
        await http.shutdown()
        await base.close()
    }

    /// A store stuck on a dead connection cannot hold the probe: it answers 503 once its timeout
    /// passes (a probe that waited for the store would hang here).
    @Test func aHangingStoreIsNotReady() async throws {
        let base = try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL())
        let http = try Self.serve(BrokenStore(base: base, hangs: true))
        let answer = try await RawHTTP.send(http.url, "readyz", method: "GET")
        #expect(answer.status == 503)
        #expect(String(decoding: answer.body, as: UTF8.self).contains("did not answer within"))
        await http.shutdown()
        await base.close()
    }

    @Test func requestsAreCountedByEndpointAndStatus() async throws {
        let server = try await HTTPTestServer()
        _ = try await RawHTTP.send(server.http.url, "v1/tenants/acme/push", body: Data("{}".utf8))
        _ = try await RawHTTP.send(server.http.url, "v1/unshare", body: Data("{}".utf8))
        _ = try await RawHTTP.send(server.http.url, "nowhere/at/all", method: "GET")
        _ = try await RawHTTP.send(server.http.url, "readyz", method: "GET")
        let text = await server.http.metricsText()
        for line in [
            #"boutique_http_requests_total{endpoint="push",status="401"} 1"#,
            #"boutique_http_requests_total{endpoint="unshare",status="401"} 1"#,
            #"boutique_http_requests_total{endpoint="other",status="404"} 1"#,
            #"boutique_http_requests_total{endpoint="readyz",status="200"} 1"#,
            #"boutique_refusals_total{reason="unauthorized"} 2"#,
            #"boutique_refusals_total{reason="not-found"} 1"#,
            #"boutique_http_request_duration_seconds_count{endpoint="push"} 1"#,
        ] {
            #expect(text.contains(line + "\n"), "\(line) in\n\(text)")
        }
        await server.stop()
    }
}
#endif
