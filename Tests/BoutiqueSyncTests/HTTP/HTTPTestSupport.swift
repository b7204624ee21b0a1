import BoutiqueSync
import BoutiqueSyncServer
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How much longer than usual the sync tests' deadlines are: `BOUTIQUE_TEST_TIMEOUT_SCALE`, for runs
/// under a sanitizer, which slows everything several times over.
let syncTimeoutScale = ProcessInfo.processInfo.environment["BOUTIQUE_TEST_TIMEOUT_SCALE"].flatMap(Double.init) ?? 1

/// A sync server on 127.0.0.1 (a free port) with an in-memory store, and tokens for it.
struct HTTPTestServer {
    static let secret = Array("a test secret of at least sixteen bytes".utf8)

    let store: SQLiteSyncStore
    let server: SyncServer
    let http: SyncHTTPServer
    let signer: SyncTokenSigner

    init(authorize: SyncAuthorizer? = nil, minimumSchemaVersion: Int = 0, options: SyncHTTPOptions = SyncHTTPOptions()) async throws {
        store = try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL())
        server = SyncServer(store: store, authorize: authorize, minimumSchemaVersion: minimumSchemaVersion)
        signer = try SyncTokenSigner(secret: Self.secret)
        http = try SyncHTTPServer(server: server, signer: signer, port: 0, options: options)
    }

    func token(tenant: String = "acme", user: String = "ana", expiresIn seconds: TimeInterval = 3_600) throws -> String {
        try signer.token(tenant: tenant, user: user, expiresAt: Date().addingTimeInterval(seconds))
    }

    func transport(tenant: String = "acme", user: String = "ana") throws -> HTTPSyncTransport {
        .http(http.url, token: try token(tenant: tenant, user: user))
    }

    func stop() async {
        await http.shutdown(gracePeriod: .seconds(2))
        await store.close()
    }
}

/// One raw HTTP exchange, for requests no device would send.
struct RawHTTP {
    let status: Int
    let body: Data

    var errorBody: SyncHTTPErrorBody? { try? SyncJSON.decoder().decode(SyncHTTPErrorBody.self, from: body) }

    static func send(
        _ url: URL, _ path: String, method: String = "POST", token: String? = nil, body: Data? = nil
    ) async throws -> RawHTTP {
        var request = URLRequest(url: url.appendingPathComponent(path))
        request.httpMethod = method
        request.httpBody = body
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await URLSession.shared.data(for: request)
        return RawHTTP(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
    }

    static func json<T: Encodable>(_ value: T) throws -> Data { try SyncJSON.encoder().encode(value) }
}
