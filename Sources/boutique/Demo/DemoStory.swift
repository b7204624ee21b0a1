import BoutiqueDB
import Foundation

/// The demo's story: writes on one side, a live query printing every result it is given on the other.
@MainActor
struct DemoStory {
    let db: BoutiqueDB

    func run() async throws {
        let query = Note.all.order { $0.updatedAt.desc() }.limit(5)
        var results = db.observe(query).makeAsyncIterator()
        guard let initial = try await results.next() else { return }
        show("Live query — first value", initial)

        let groceries = UUID()
        try await db.write { conn in
            try Note.insert {
                Note(id: groceries, title: "Groceries", body: "oat milk, lemons")
                Note(id: UUID(), title: "Call the plumber", body: "before Friday")
            }.execute(conn.connection)
        }
        show("Inserted two notes — the live query now shows", try await results.next() ?? [])

        try await db.write { conn in
            try Note.update { $0.body = "oat milk, lemons, coffee"; $0.updatedAt = Date() }
                .where { $0.id == groceries }
                .execute(conn.connection)
        }
        let edited = try await results.next() ?? []
        show("Edited the groceries note — the live query now shows", edited)

        try await search("lemon OR plumber")

        // The oldest note the live query shows: with more notes than it shows (a file the demo ran on
        // twice before), deleting an older one would change nothing it shows, and no new value would come.
        guard let oldest = edited.last?.id else { return }
        try await db.write { conn in
            try Note.where { $0.id == oldest }.delete().execute(conn.connection)
        }
        show("Deleted the oldest note — the live query now shows", try await results.next() ?? [])

        let count = try await db.read { conn in try Note.all.fetchCount(conn.connection) }
        Output.line("\n\(count) note\(count == 1 ? "" : "s") stored in all.")
    }

    /// Finds notes by words, best match first (a title match counts ten times a body match), each with
    /// its matched words in brackets: the porter tokenizer makes "lemon" find "lemons".
    private func search(_ pattern: String) async throws {
        let matches = try await db.read { conn in
            try NoteSearch.where { $0.match(pattern) }
                .order { $0.bm25([\.title: 10, \.body: 1]) }
                .select { ($0.title.highlight("[", "]"), $0.body.snippet("[", "]", "…", 8)) }
                .fetchAll(conn)
        }
        Output.line("\nSearched the notes for \"\(pattern)\", best match first:")
        Output.line(TableRenderer.render(
            columns: ["title", "snippet"], rows: matches.map { [.text($0.0), .text($0.1)] }))
    }

    private func show(_ title: String, _ notes: [Note]) {
        Output.line("\n\(title):")
        let rows = notes.map { note -> [DatabaseValue] in
            [.text(note.title), .text(note.body), .text(Self.time.string(from: note.updatedAt))]
        }
        Output.line(TableRenderer.render(columns: ["title", "body", "updated"], rows: rows))
    }

    private static let time: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss.SSS"
        return formatter
    }()
}
