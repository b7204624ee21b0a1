import BoutiqueDB
import Foundation

/// The notes app of BoutiqueDB's product description: its model and its migrations, as written there,
/// and the full-text index that the demo adds.
@Table
struct Note: Sendable, Equatable {
    @Column(primaryKey: true) let id: UUID
    var title: String
    var body: String
    var updatedAt: Date = Date()
}

/// The notes' full-text index: each note's key, to find it again, and the text searched.
@Table
struct NoteSearch: FTS5 {
    let id: UUID
    let title: String
    let body: String
}

/// A photo on a note: the picture's bytes are an attachment, kept beside the database file and synced
/// by their hash, never in the row.
@Table
struct NotePhoto: Sendable, Equatable {
    @Column(primaryKey: true) let id: UUID
    let noteID: UUID
    var caption: String
    var image: Attachment
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

        // Indexes the notes already there too, so a file an older demo wrote becomes searchable.
        BoutiqueMigration("v3_search_notes") { conn in
            try conn.createFTS5Table(NoteSearch.self, content: Note.self, tokenizer: .porter())
        }

        BoutiqueMigration("v4_note_photos") { conn in
            try conn.execute("""
                CREATE TABLE notePhoto (
                    id TEXT PRIMARY KEY NOT NULL,
                    noteID TEXT NOT NULL REFERENCES note(id) ON DELETE CASCADE,
                    caption TEXT NOT NULL,
                    image TEXT NOT NULL
                )
            """)
        }
    }
}
