// The HTTP front end is part of the package where GNU libmicrohttpd is installed, and the tokens are
// minted with libcrypto; so are these tests.
#if BOUTIQUE_SYNC_HTTP && canImport(CCrypto)
import BoutiqueSQLite
import BoutiqueSync
import BoutiqueSyncHTTP
import BoutiqueSyncServer
import Foundation
import Testing

/// A device on the Swift API with an identity provider's JWTs: the transport sends them as it sends
/// any token, and renews an expired one through the app.
@MainActor @Suite struct JWTCredentialsTests {
    @Test func anExpiredJWTIsRenewedThroughTheAppAndSyncGoesOn() async throws {
        let key = TestSigningKey(.p256, id: "device-test")
        let store = try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL())
        let server = SyncServer(store: store)
        let verifier = try JWTVerifier(keys: try JSONWebKeySet(json: TestJWT.keySet([key.jwk()])))
        let http = try SyncHTTPServer(server: server, authentication: try SyncAuthentication(jwt: verifier), port: 0)
        let expired = key.token(TestJWT.claims(exp: Date().addingTimeInterval(-3_600)))
        let fresh = key.token(TestJWT.claims())
        let asked = Lock<[String?]>([])
        let transport: HTTPSyncTransport = .http(http.url, credentials: { rejected in
            asked.withLock { $0.append(rejected) }
            return rejected == nil ? expired : fresh
        })
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let sync = try await BoutiqueSync(database: database, tables: ["note"], server: transport)
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'with a JWT')") }
        let report = try await sync.synchronize()
        #expect(report.pushed == 1)
        #expect(asked.withLock { $0 } == [nil, expired], "asked for a first token, then for one to replace the expired one")
        let rows = try await store.read(tenant: "acme") { try $0.latestSequence() }
        #expect(rows >= 1, "the change is the tenant claim's")
        await database.close()
        await http.shutdown()
        await store.close()
    }
}
#endif
