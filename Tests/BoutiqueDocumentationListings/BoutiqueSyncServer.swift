import BoutiqueDB
import BoutiqueSyncServer

// The listing of BoutiqueSyncServer's landing page.
public enum SyncServerPage {
    static func makeServer() async throws -> SyncServer {
        let server = SyncServer(store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()))
        return server
    }
}
