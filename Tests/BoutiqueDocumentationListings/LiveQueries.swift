import BoutiqueDB
import Foundation
import Observation
import Synchronization

#if canImport(SwiftUI)
import SwiftUI
#endif

// The listings of the Live Queries article.

public enum LiveQueries {
    @Table
    struct Note: Sendable {
        @Column(primaryKey: true) let id: UUID
        var title: String
        var body: String
        var updatedAt: Date = Date()
        var isPinned: Bool = false
    }

    static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_create_notes") { conn in
            try conn.execute("""
                CREATE TABLE note (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL,
                                   updatedAt REAL NOT NULL, isPinned INTEGER NOT NULL DEFAULT 0)
                """)
        }
    }

    @MainActor @Observable
    final class NotesModel {
        @ObservationIgnored @LiveQuery<Note> var notes: [Note]
        @ObservationIgnored @LiveQueryOne<Note> var pinned: Note?

        init(db: BoutiqueDB) {
            _notes = LiveQuery(db, { Note.all.order { $0.updatedAt.desc() }.asSelect() })
            _pinned = LiveQueryOne(db, Note.where { $0.isPinned }.order { $0.updatedAt.desc() })
        }
    }

    #if canImport(SwiftUI)
    struct NotesView: View {
        @State private var model: NotesModel

        init(db: BoutiqueDB) {
            _model = State(initialValue: NotesModel(db: db))
        }

        var body: some View {
            List(model.notes, id: \.id) { note in
                Text(note.title)
            }
        }
    }
    #endif

    @MainActor
    final class InboxModel {
        @LiveQuery({ Note.all.order { $0.updatedAt.desc() }.asSelect() }) var notes: [Note] = []
        @LiveQueryOne(Note.where { $0.isPinned }) var pinned: Note?
    }

    /// Sets the default database, then creates a model whose live queries use it.
    @MainActor
    static func launch() async throws -> InboxModel {
        BoutiqueDB.default = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: plan)
        let model = InboxModel()
        return model
    }

    /// Counts how often the model's notes change while three notes are written.
    @MainActor
    public static func observation() async throws -> (changes: Int, titles: [String], status: String) {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: plan)
        let model = NotesModel(db: db)
        let changes = Counter()
        withObservationTracking {
            _ = model.notes
        } onChange: {
            changes.increment()
        }
        for title in ["Groceries", "Plumber", "Dentist"] {
            try await db.write { conn in
                try Note.insert { Note(id: UUID(), title: title, body: "", isPinned: title == "Plumber") }.execute(conn)
            }
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while model.notes.count < 3 || model.pinned == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        let result = (changes.value, model.notes.map(\.title).sorted(), model.status)
        await db.close()
        return result
    }

    /// The first three results `observe` delivers: the current one, then one per commit.
    @MainActor
    public static func observe() async throws -> (counts: [Int], first: String) {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: plan)
        var counts: [Int] = []
        let writer = Task { @MainActor in
            for title in ["Groceries", "Plumber"] {
                try await Task.sleep(for: .milliseconds(20))
                try await db.write { conn in
                    try Note.insert { Note(id: UUID(), title: title, body: "", isPinned: true) }.execute(conn)
                }
            }
        }

        for try await pinned in db.observe(Note.where { $0.isPinned }.order { $0.title }) {
            counts.append(pinned.count)
            if pinned.count == 2 { break }
        }

        try await writer.value
        let first = try await firstPinnedTitle(db)
        await db.close()
        return (counts, first)
    }

    @MainActor
    static func firstPinnedTitle(_ db: BoutiqueDB) async throws -> String {
        var title = ""
        for try await note in db.observeOne(Note.where { $0.isPinned }.order { $0.title }) {
            title = note?.title ?? "none"
            break
        }
        return title
    }

    /// Stops a live query: its value stays as it was.
    @MainActor
    static func stop(_ model: NotesModel) {
        model.$notes.stop()
    }
}

extension LiveQueries.NotesModel {
    var status: String {
        if let error = $notes.error { return "Could not load the notes: \(error)" }
        return $notes.isLoading ? "Loading…" : "\(notes.count) notes"
    }
}

/// Counts from any thread.
final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
