import BoutiqueDB
import BoutiqueSyncServer
import Foundation

// The listings of BoutiqueSyncServer's landing page.
public enum SyncServerPage {
    static func makeServer() async throws -> SyncServer {
        let server = SyncServer(store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()))
        return server
    }

    static func signTokens() throws -> String {
        let signer = try SyncTokenSigner(secretFile: URL(fileURLWithPath: "secret"))
        let token = try signer.token(tenant: "acme", user: "ana", expiresAt: Date().addingTimeInterval(86_400))
        return token
    }
}
