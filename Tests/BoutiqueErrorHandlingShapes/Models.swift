import BoutiqueDB
import Foundation

/// The product description's model and migrations, as an app declares them.
@Table
public struct Note: Sendable, Equatable {
    @Column(primaryKey: true) public let id: UUID
    public var title: String
    public var body: String
    public var updatedAt: Date = Date()

    public init(id: UUID, title: String, body: String, updatedAt: Date = Date()) {
        self.id = id
        self.title = title
        self.body = body
        self.updatedAt = updatedAt
    }
}

public enum AppMigrations {
    public static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_create_notes") { conn in
            try conn.execute("""
                CREATE TABLE note (
                    id TEXT PRIMARY KEY NOT NULL,
                    title TEXT NOT NULL,
                    body TEXT NOT NULL,
                    updatedAt REAL NOT NULL
                )
            """)
        }
    }

    /// The same plan with a second migration that fails: its SQL names a table that does not exist.
    public static let failing = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_create_notes") { conn in
            try conn.execute("CREATE TABLE note (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL, updatedAt REAL NOT NULL)")
        }
        BoutiqueMigration("v2_broken") { conn in
            try conn.execute("ALTER TABLE missing ADD COLUMN isPinned INTEGER NOT NULL DEFAULT 0")
        }
    }
}

/// A folder of its own under the system's temporary folder, removed when the value goes away.
public final class TemporaryFolder {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("boutique-errors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(at: url) }
}
