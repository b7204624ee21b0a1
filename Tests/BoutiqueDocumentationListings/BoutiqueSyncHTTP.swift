// The listing of BoutiqueSyncHTTP's landing page, compiled where the package has the module.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueDB
import BoutiqueSyncHTTP
import Foundation

public enum SyncHTTPPage {
    static func serveOverHTTP(_ server: SyncServer) throws -> (SyncHTTPServer, String) {
        let signer = try SyncTokenSigner(secretFile: URL(fileURLWithPath: "secret"))
        let http = try SyncHTTPServer(server: server, signer: signer, port: 8080)
        let token = try signer.token(tenant: "acme", user: "ana", expiresAt: Date().addingTimeInterval(86_400))
        return (http, token)
    }
}
#endif
