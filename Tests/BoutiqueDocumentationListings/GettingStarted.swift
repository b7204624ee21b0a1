import BoutiqueDB
import Foundation

// The listings of the Getting Started article, in the order the article shows them. Scripts/build-docs.sh
// checks that each of the article's Swift listings appears here verbatim (up to indentation).

/// The notes app of the product description.
public enum GettingStarted {
    @Table
    struct Note: Sendable {
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
                try conn.execute("ALTER TABLE note ADD COLUMN isPinned INTEGER NOT NULL DEFAULT 0")
            }
        }
    }

    /// The app's database, in its Application Support folder.
    @MainActor
    static func openAppDatabase() async throws -> BoutiqueDB {
        let url = try BoutiqueDB.applicationSupportURL(filename: "notes.db")
        let db = try await BoutiqueDB.open(url: url, migrations: AppMigrations.plan)
        return db
    }

    /// A fresh database for a test or a preview.
    @MainActor
    static func openPreviewDatabase() async throws -> BoutiqueDB {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
        return db
    }

    /// Writes, then reads, the notes.
    @MainActor
    public static func writeAndRead() async throws -> [String] {
        let db = try await openPreviewDatabase()

        let groceries = UUID()
        try await db.write { conn in
            try Note.insert {
                Note(id: groceries, title: "Groceries", body: "oat milk, lemons")
                Note(id: UUID(), title: "Call the plumber", body: "before Friday")
            }.execute(conn)
        }

        let notes = try await db.read { conn in
            try Note.all.order { $0.updatedAt.desc() }.fetchAll(conn)
        }

        try await db.write { conn in
            try Note.update { $0.body = "oat milk, lemons, coffee"; $0.updatedAt = Date() }
                .where { $0.id == groceries }
                .execute(conn)
            try Note.where { $0.title.hasPrefix("Call") }.delete().execute(conn)
        }

        let titles = try await db.read { conn in
            try Note.all.order { $0.title }.select { $0.title }.fetchAll(conn)
        }
        await db.close()
        return notes.map(\.title) + titles
    }

    @MainActor
    final class NotesModel {
        @LiveQuery<Note> var notes: [Note]

        init(db: BoutiqueDB) {
            _notes = LiveQuery(db, { Note.all.order { $0.updatedAt.desc() }.asSelect() })
        }
    }

    /// Waits for the model's live query to show `count` notes.
    @MainActor
    public static func liveQuery() async throws -> Int {
        let db = try await openPreviewDatabase()
        let model = NotesModel(db: db)
        try await db.write { conn in
            try Note.insert { Note(id: UUID(), title: "New Note", body: "") }.execute(conn)
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while model.notes.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        let count = model.notes.count
        await db.close()
        return count
    }

    @Table
    struct NoteSearch: FTS5 {
        let id: UUID
        var title: String
        var body: String
    }

    enum SearchMigrations {
        static let plan = BoutiqueMigrationPlan {
            AppMigrations.plan
            BoutiqueMigration("v3_search_notes") { conn in
                try conn.createFTS5Table(NoteSearch.self, content: Note.self, tokenizer: .porter())
            }
        }
    }

    /// Writes two notes, then searches them: each match's title and snippet, matches in brackets.
    @MainActor
    public static func search() async throws -> [String] {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: SearchMigrations.plan)
        try await db.write { conn in
            try Note.insert {
                Note(id: UUID(), title: "Groceries", body: "oat milk, lemons")
                Note(id: UUID(), title: "Call the plumber", body: "before Friday")
            }.execute(conn)
        }

        let results = try await db.read { conn in
            try NoteSearch.where { $0.match("lemon") }
                .order { $0.rank }
                .select { ($0.id, $0.title.highlight("[", "]"), $0.body.snippet("[", "]", "…", 8)) }
                .fetchAll(conn)
        }
        await db.close()
        return results.map { "\($0.1): \($0.2)" }
    }

    /// Adds a note, saying what went wrong if it could not.
    @MainActor
    public static func addNote(title: String, to db: BoutiqueDB) async -> String {
        do {
            try await db.write { conn in
                try Note.insert { Note(id: UUID(), title: title, body: "") }.execute(conn)
            }
            return "added"
        } catch let error as BoutiqueError {
            switch error {
            case .sql(let code, let message):
                return "SQLite error (\(code)): \(message)"
            case .transactionInProgress:
                return "Another write holds the database; try again."
            default:
                return "BoutiqueDB error: \(error)"
            }
        } catch {
            return "Unexpected error: \(error)"
        }
    }

    /// Runs ``addNote(title:to:)`` on a database without the notes table, where it fails.
    @MainActor
    public static func addNoteFailing() async throws -> String {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL())
        let message = await addNote(title: "Lost", to: db)
        await db.close()
        return message
    }
}
