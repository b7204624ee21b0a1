import BoutiqueDB
import BoutiqueSyncServer
import Foundation

// The listing of BoutiqueSyncServer's landing page.
public enum SyncServerPage {
    static func makeServer() async throws -> SyncServer {
        let server = SyncServer(store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()))
        return server
    }

    static func serveOverHTTP(_ server: SyncServer) throws -> (SyncHTTPServer, String) {
        let signer = try SyncTokenSigner(secretFile: URL(fileURLWithPath: "secret"))
        let http = try SyncHTTPServer(server: server, signer: signer, port: 8080)
        let token = try signer.token(tenant: "acme", user: "ana", expiresAt: Date().addingTimeInterval(86_400))
        return (http, token)
    }
}
