// The server listing of the Attachments article, compiled where the package has the HTTP front end.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueDB
import BoutiqueSyncHTTP
import Foundation

public enum AttachmentsServerListing {
    static func serveAttachments(_ server: SyncServer, signer: SyncTokenSigner) throws -> SyncHTTPServer {
        let attachments = try FolderAttachmentStore(
            directory: URL(fileURLWithPath: "sync.db.attachments"),
            maximumAttachmentBytes: 2 << 30, tenantQuotaBytes: 50 << 30)
        let http = try SyncHTTPServer(server: server, signer: signer, port: 8080, attachments: attachments)
        return http
    }
}
#endif
