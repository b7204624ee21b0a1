import BoutiqueSync
@testable import BoutiqueSyncServer
import Foundation
import Testing

#if BOUTIQUE_SYNC_HTTP
import BoutiqueSyncHTTP
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#endif

/// A replica id belongs to the device that first pushed it with a secret: another device cannot learn
/// its watermark, push under it, or pull as it.
@Suite struct ReplicaBindingTests {
    typealias Contract = SyncStoreContractTests

    static func push(
        _ server: SyncServer, _ transactions: [SyncTransaction], replica: String = "victim", secret: String?, base: Int64 = 0,
        digest: UInt64? = nil
    ) async throws -> PushResponse {
        var request = PushRequest(replica: replica, baseTransactionID: base, baseDigest: digest, schemaVersion: 1, transactions: transactions)
        request.replicaSecret = secret
        return try await server.push(request, tenant: "t")
    }

    static func pull(_ server: SyncServer, replica: String = "victim", secret: String?) async throws -> PullResponse {
        var request = PullRequest(replica: replica, cursor: 0, limit: 100)
        request.replicaSecret = secret
        return try await server.pull(request, tenant: "t")
    }

    @Test(arguments: StoreKind.allCases)
    func anotherDeviceCannotTakeAReplicaIdOver(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Contract.server(store)
            let first = try await Self.push(server, [Contract.transaction(1), Contract.transaction(2, keys: [.text("j")])], secret: "victim's")
            #expect(first.outcome == .accepted && first.appliedThrough == 2)
            // The attacker does not know the secret: without one, or with another, it learns nothing.
            for secret in [nil, "guess"] as [String?] {
                let probe = try await Self.push(server, [Contract.transaction(1, title: "mine")], secret: secret)
                #expect(probe.outcome == .forbidden && probe.refusal == .replicaTaken, "\(probe)")
                #expect(probe.appliedThrough == 0 && probe.digest == nil, "no watermark, no digest")
                // Even knowing the watermark and digest, a push built from them is refused.
                let takeover = try await Self.push(
                    server, [Contract.transaction(3, keys: [.text("stolen")])], secret: secret, base: first.appliedThrough, digest: first.digest)
                #expect(takeover.outcome == .forbidden && takeover.appliedThrough == 0 && takeover.digest == nil)
                let pulled = try await Self.pull(server, secret: secret)
                #expect(pulled.outcome == .refused && pulled.refusal == .replicaTaken)
                #expect(pulled.changes.isEmpty && pulled.replicaWatermark == nil && pulled.replicaDigest == nil)
                // A refusal for a malformed push tells nothing either.
                let malformed = try await Self.push(server, [Contract.transaction(0)], secret: secret)
                #expect(malformed.outcome == .refused && malformed.appliedThrough == 0 && malformed.digest == nil)
            }
            #expect(try await Contract.log(server).count == 2, "nothing of the attacker's was applied")
            // The device itself goes on.
            let pulled = try await Self.pull(server, secret: "victim's")
            #expect(pulled.outcome == .changes && pulled.replicaWatermark == 2 && pulled.replicaDigest == first.digest)
            let next = try await Self.push(
                server, [Contract.transaction(3, keys: [.text("k3")])], secret: "victim's", base: 2, digest: first.digest)
            #expect(next.outcome == .accepted && next.appliedThrough == 3)
            let record = try await store.transaction(tenant: "t") { store in try store.replica("victim") }
            #expect(record?.secretHash == (try ReplicaSecret.hash("victim's")), "the hash is kept, not the secret")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aReplicaRecordedWithoutASecretIsBoundAtItsNextPushWithOne(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Contract.server(store)
            let old = try await Self.push(server, [Contract.transaction(1)], secret: nil)
            #expect(old.outcome == .accepted)
            // A device from before secrets is answered as before.
            let again = try await Self.pull(server, secret: nil)
            #expect(again.outcome == .changes && again.replicaWatermark == 1)
            let bound = try await Self.push(server, [Contract.transaction(2, keys: [.text("j")])], secret: "s", base: 1, digest: old.digest)
            #expect(bound.outcome == .accepted && bound.appliedThrough == 2)
            let unbound = try await Self.push(server, [], secret: nil, base: 2, digest: bound.digest)
            #expect(unbound.outcome == .forbidden && unbound.appliedThrough == 0, "bound now: a push without the secret is refused")
            #expect(try await Self.pull(server, secret: "s").replicaWatermark == 2)
        }
    }

    #if BOUTIQUE_SYNC_HTTP
    @Test func overHTTPATakeoverIsA403ThatTellsNothing() async throws {
        let store = try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL())
        let server = Contract.server(store)
        let signer = try SyncTokenSigner(secret: Array("a test secret of at least sixteen bytes".utf8))
        let http = try SyncHTTPServer(server: server, signer: signer, port: 0)
        let token = try signer.token(tenant: "t", user: "ana", expiresAt: Date().addingTimeInterval(3_600))
        var victim = PushRequest(replica: "victim", baseTransactionID: 0, baseDigest: nil, schemaVersion: 1, transactions: [Contract.transaction(1)])
        victim.replicaSecret = "victim's"
        #expect(try await server.push(victim, tenant: "t").outcome == .accepted)
        var takeover = victim
        takeover.replicaSecret = "guess"
        takeover.transactions = [Contract.transaction(1, title: "mine")]
        let pushed = try await Self.post(http.url, "v1/push", token: token, body: try SyncJSON.encoder().encode(takeover))
        #expect(pushed.status == 403 && pushed.text.contains(#""code":"replicaTaken""#))
        #expect(!pushed.text.contains("appliedThrough") && !pushed.text.contains("digest"), "\(pushed.text)")
        var pull = PullRequest(replica: "victim", cursor: 0, limit: 10)
        pull.replicaSecret = "guess"
        let pulled = try await Self.post(http.url, "v1/pull", token: token, body: try SyncJSON.encoder().encode(pull))
        #expect(pulled.status == 403 && !pulled.text.contains("replicaWatermark"), "\(pulled.text)")
        await http.shutdown(gracePeriod: .seconds(2))
        await store.close()
    }

    static func post(_ url: URL, _ path: String, token: String, body: Data) async throws -> (status: Int, text: String) {
        var request = URLRequest(url: url.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        // A guard against a hang, not a measure: URLSession's own 60 s once ran out under a sanitizer.
        request.timeoutInterval = RawHTTP.hangTimeout
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }
    #endif
}
