import BoutiqueDB
import Foundation

// The listings of the Migrations article.

public enum Migrations {
    @Table
    struct Note: Sendable {
        @Column(primaryKey: true) let id: UUID
        var title: String
        var body: String
        var updatedAt: Date = Date()
        var isPinned: Bool = false
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
                try conn.execute("ALTER TABLE note ADD COLUMN isPinned INTEGER NOT NULL DEFAULT 0")
            }

            BoutiqueMigration("v3_index_titles") { conn in
                try conn.execute("CREATE INDEX note_title ON note(title)")
            }
        }
    }

    /// The plan of the app's next version: the shipped plan, and one more migration at its end.
    enum NextVersionMigrations {
        static let plan = BoutiqueMigrationPlan {
            AppMigrations.plan
            BoutiqueMigration("v4_optional_body") { conn in
                try conn.execute("""
                    CREATE TABLE note_new (
                        id TEXT PRIMARY KEY NOT NULL,
                        title TEXT NOT NULL,
                        body TEXT,
                        updatedAt REAL NOT NULL,
                        isPinned INTEGER NOT NULL DEFAULT 0
                    );
                    INSERT INTO note_new (id, title, body, updatedAt, isPinned)
                        SELECT id, title, nullif(body, ''), updatedAt, isPinned FROM note;
                    DROP TABLE note;
                    ALTER TABLE note_new RENAME TO note;
                    CREATE INDEX note_title ON note(title);
                    """)
            }
        }
    }

    /// Opens a database, reporting the migration errors an app can act on.
    @MainActor
    public static func open(url: URL) async throws -> String {
        do {
            let db = try await BoutiqueDB.open(url: url, migrations: AppMigrations.plan)
            let applied = try await db.appliedMigrations.map(\.id)   // ["v1_create_notes", …, "v3_index_titles"]
            await db.close()
            return applied.joined(separator: ",")
        } catch let error as BoutiqueError {
            switch error {
            case .migrationFailed(let id, let message):
                return "migration \(id) failed and was rolled back: \(message)"
            case .migrationHistoryMismatch(let applied, let planned):
                return "the file was migrated by another version of the app: \(applied) is not a prefix of \(planned)"
            default:
                throw error
            }
        }
    }

    /// A plan whose last migration fails: the database keeps the migrations before it.
    static let failing = BoutiqueMigrationPlan {
        NextVersionMigrations.plan
        BoutiqueMigration("v5_broken") { conn in
            try conn.execute("ALTER TABLE missing ADD COLUMN color TEXT")
        }
    }

    /// The error of opening with ``failing``, and the migrations applied afterwards.
    @MainActor
    public static func failingMigration() async throws -> (String, [String]) {
        let url = BoutiqueDB.inMemoryURL()
        let keep = try await BoutiqueDB.open(url: url, migrations: AppMigrations.plan)
        var message = ""
        do {
            _ = try await BoutiqueDB.open(url: url, migrations: failing)
        } catch let error as BoutiqueError {
            message = error.description
        }
        let applied = try await keep.appliedMigrations.map(\.id)
        await keep.close()
        return (message, applied)
    }
}
