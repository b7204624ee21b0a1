import BoutiqueDB
import BoutiqueSyncServer
import Foundation

/// The store `boutique serve` keeps tenants' data in, and how to close it.
struct ServerStore {
    let store: any SyncStore
    let close: @Sendable () async -> Void

    /// PostgreSQL when `postgres` names a database, otherwise the SQLite file at `sqlite`.
    static func open(sqlite: String?, postgres: String?) async throws -> ServerStore {
        if let postgres {
            let store = try await PostgreSQLSyncStore.open(url: postgres)
            return ServerStore(store: store, close: { await store.close() })
        }
        guard let sqlite else { throw UsageError("--store FILE (or --postgres URL) is required") }
        let store = try await SQLiteSyncStore.open(url: URL(fileURLWithPath: sqlite))
        return ServerStore(store: store, close: { await store.close() })
    }
}
