import BoutiqueDB
import Foundation

// The listings of the Models and Queries article's full-text search section.

extension ModelsAndQueries {
    @Table
    struct ReminderText: FTS5 {
        let id: Int
        var title: String
        var notes: String?
    }

    static let searchMigrations = BoutiqueMigrationPlan {
        migrations
        BoutiqueMigration("v3_search_reminders") { conn in
            try conn.createFTS5Table(ReminderText.self, content: Reminder.self, tokenizer: .porter())
        }
    }

    static func search(_ conn: DatabaseConnection) throws -> [String] {
        let found = try ReminderText
            .where { $0.match("groceries OR milk") }
            .order { $0.bm25([\.title: 10, \.notes: 1]) }
            .select { ($0.id, $0.title.highlight("**", "**"), $0.notes.snippet("**", "**", "…", 8)) }
            .fetchAll(conn)

        let reminders = try Reminder
            .where { $0.id.in(ReminderText.where { $0.notes.match("milk") }.select { $0.id }) }
            .fetchAll(conn)
        return found.map { "\($0.0) \($0.1) \($0.2 ?? "-")" } + reminders.map(\.title)
    }

    /// Creates the index, writes the reminders the other listings read, and searches them.
    @MainActor
    public static func runSearch() async throws -> [String] {
        let indexed = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: searchMigrations)
        try await indexed.write { conn in try seed(conn) }
        let lines = try await indexed.read { conn in try search(conn) }
        await indexed.close()
        return lines
    }
}
