import BoutiqueDB
import Foundation

/// The notes app of BoutiqueDB's product description: its model and its migrations, as written there.
@Table
struct Note: Sendable, Equatable {
    @Column(primaryKey: true) let id: UUID
    var title: String
    var body: String
    var updatedAt: Date = Date()
}

enum AppMigrations {
    static let plan = BoutiqueMigrationPlan {
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

        BoutiqueMigration("v2_add_pinned_column") { conn in
            try conn.execute("""
                ALTER TABLE note ADD COLUMN isPinned INTEGER NOT NULL DEFAULT 0
            """)
        }
    }
}
