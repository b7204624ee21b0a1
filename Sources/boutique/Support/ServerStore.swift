import BoutiqueDB
import BoutiqueSyncServer
import Foundation

/// The store `boutique serve` keeps tenants' data in, and how to close it.
struct ServerStore {
    let store: any SyncStore
    let close: @Sendable () async -> Void

    /// Where the store is, as the flags of `serve`, `owner` and `members` name it.
    enum Location {
        /// `--store FILE`: every tenant in one SQLite file.
        case file(String)
        /// `--store-dir DIR`: a SQLite file per tenant in DIR (``SQLiteTenantFilesStore``).
        case directory(String)
        /// `--postgres URL`, `--postgres-url-file FILE` or `$BOUTIQUE_POSTGRES_URL`.
        case postgres(String)

        /// What a command says when no store is named.
        static let missing =
            "--store FILE, --store-dir DIR, --postgres URL, --postgres-url-file FILE or \(SecretArguments.postgresVariable) is required"

        /// The store the flags name, `nil` when they name none; two is a usage error.
        static func take(_ arguments: inout ArgumentParser) throws -> Location? {
            let file = try arguments.takeOption("--store")
            let directory = try arguments.takeOption("--store-dir")
            if file != nil, directory != nil { throw UsageError("--store and --store-dir name two stores; give one") }
            let postgres = try SecretArguments.postgresURL(&arguments, store: file ?? directory, storeFlag: directory != nil ? "--store-dir" : "--store")
            if let postgres { return .postgres(postgres) }
            return file.map(Location.file) ?? directory.map(Location.directory)
        }

        /// Whether the SQLite store is there: opening one creates it, and a mistyped path must not
        /// become a new, empty store. PostgreSQL's database is there or refuses the connection.
        var exists: Bool {
            switch self {
            case .file(let path): FileManager.default.fileExists(atPath: path)
            case .directory(let path): FileManager.default.fileExists(atPath: URL(fileURLWithPath: path).appendingPathComponent("main.db").path)
            case .postgres: true
            }
        }

        var path: String {
            switch self {
            case .file(let path), .directory(let path): path
            case .postgres(let url): url
            }
        }
    }

    /// Opens the store at `location`; a directory keeps at most `openTenantFiles` tenant files open.
    static func open(_ location: Location, openTenantFiles: Int = SQLiteTenantFilesStore.defaultOpenFileLimit) async throws -> ServerStore {
        switch location {
        case .postgres(let url):
            let store = try await PostgreSQLSyncStore.open(url: url)
            return ServerStore(store: store, close: { await store.close() })
        case .file(let path):
            let store = try await SQLiteSyncStore.open(url: URL(fileURLWithPath: path))
            return ServerStore(store: store, close: { await store.close() })
        case .directory(let path):
            let store = try await SQLiteTenantFilesStore.open(directory: URL(fileURLWithPath: path), openFileLimit: openTenantFiles)
            return ServerStore(store: store, close: { await store.close() })
        }
    }
}
