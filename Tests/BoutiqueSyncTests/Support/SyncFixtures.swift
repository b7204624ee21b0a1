import BoutiqueSync
import BoutiqueSyncServer
import Foundation

/// The schema the sync tests use: notes, and tags that belong to a note (a foreign key).
enum SyncTestSchema {
    static let v1 = BoutiqueMigration("v1_notes") { conn in
        try conn.execute("""
            CREATE TABLE note(id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL DEFAULT '', body TEXT, rank INTEGER);
            CREATE TABLE tag(id TEXT PRIMARY KEY NOT NULL, noteID TEXT REFERENCES note(id) ON DELETE CASCADE, label TEXT);
            """)
    }
    /// An additive change: a new nullable column.
    static let v2 = BoutiqueMigration("v2_note_color") { conn in
        try conn.execute("ALTER TABLE note ADD COLUMN color TEXT")
    }

    static let plan = BoutiqueMigrationPlan { v1 }
    static let upgraded = BoutiqueMigrationPlan {
        v1
        v2
    }
}

/// A folder for a test's files, removed afterwards.
final class SyncTemporaryDirectory: Sendable {
    let url: URL

    /// - Parameter inMemory: put the folder on a memory file system when the system has one
    ///   (`/dev/shm`), for the simulator's thousands of small files.
    init(inMemory: Bool = false) throws {
        var isDirectory: ObjCBool = false
        let base = inMemory && FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDirectory) && isDirectory.boolValue
            ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
        url = base
            .appendingPathComponent("boutique-sync-tests-\(UUID().uuidString.lowercased())", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A server with an in-memory store.
func makeServer(resolver: SyncResolver? = nil) async throws -> SyncServer {
    SyncServer(store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()), resolver: resolver)
}

extension DatabaseActor {
    /// The rows of `table` as text, ordered by key, for comparisons.
    func rows(_ table: String) async throws -> [[String]] {
        try await read { conn in
            try conn.fetchAll("SELECT * FROM \(SQLIdentifier.quote(table)) ORDER BY 1").map { row in row.values.map(\.description) }
        }
    }
}
