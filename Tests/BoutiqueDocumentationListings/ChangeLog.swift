import BoutiqueDB
import Foundation

// The listings of the Change Log article.

public enum ChangeLog {
    @Table
    struct Note: Sendable {
        @Column(primaryKey: true) let id: UUID
        var title: String
        var body: String
        var updatedAt: Date = Date()
    }

    static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_create_notes") { conn in
            try conn.execute(
                "CREATE TABLE note (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL, updatedAt REAL NOT NULL)")
        }
    }

    /// The options of a database that keeps a week of changes.
    static let options = DatabaseOptions(changeCapture: .init(mode: .full, retention: .age(.seconds(7 * 86_400))))

    /// A search index kept in step with the notes, as a change-feed reader builds one.
    @MainActor
    final class SearchIndex {
        var titles: [UUID: String] = [:]
        var savedToken = ChangeToken.beginning

        func add(_ note: Note) { titles[note.id] = note.title }
        func remove(_ note: Note) { titles[note.id] = nil }
    }

    /// Follows the feed into `index` until the task is cancelled.
    @MainActor
    static func follow(_ db: BoutiqueDB, into index: SearchIndex) async throws {
        for try await transaction in db.changes(since: index.savedToken) {
            for change in transaction.changes where change.table == "note" {
                switch change.kind {
                case .insert, .update:
                    if let note = try change.after(as: Note.self) { index.add(note) }
                case .delete:
                    if let note = try change.before(as: Note.self) { index.remove(note) }
                }
            }
            index.savedToken = transaction.token
        }
    }

    /// Writes three transactions and follows them; returns the index's titles and what else the log says.
    @MainActor
    public static func run() async throws -> [String] {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: plan, options: options)
        let start = try await db.currentToken
        let index = SearchIndex()
        index.savedToken = start
        let follower = Task { @MainActor in try await follow(db, into: index) }

        let groceries = UUID()
        try await db.write { conn in
            try Note.insert {
                Note(id: groceries, title: "Groceries", body: "")
                Note(id: UUID(), title: "Plumber", body: "")
            }.execute(conn)
        }
        try await db.write { conn in
            try Note.update { $0.title = "Groceries for Sunday" }.where { $0.id == groceries }.execute(conn)
        }
        try await db.write { conn in
            try Note.where { $0.title == "Plumber" }.delete().execute(conn)
        }
        let end = try await db.currentToken
        let deadline = ContinuousClock.now + .seconds(60)
        while index.savedToken < end, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        follower.cancel()
        try await follower.value

        let data = try JSONEncoder().encode(index.savedToken)                   // a bare integer, such as 12
        let restored = try JSONDecoder().decode(ChangeToken.self, from: data)

        let assigned = try await updatedColumns(db, since: start)
        let rows = try await db.read { conn in
            try conn.fetchAll("SELECT change_id, change_type, table_name, id FROM turso_cdc ORDER BY change_id")
        }

        try await db.pruneChanges(upTo: restored)
        var pruned = ""
        do {
            for try await _ in db.changes(since: start) { break }
        } catch let error as BoutiqueError {
            if case .changesPruned(let requested, let oldest) = error { pruned = "\(requested) < \(oldest)" }
        }
        await db.close()
        return index.titles.values.sorted() + [String(data: data, encoding: .utf8) ?? "", assigned, "\(rows.count)", pruned]
    }

    /// The columns the first update after `start` assigned.
    @MainActor
    static func updatedColumns(_ db: BoutiqueDB, since start: ChangeToken) async throws -> String {
        for try await transaction in db.changes(since: start) {
            guard let change = transaction.changes.first(where: { $0.kind == .update }) else { continue }
            let title = change.value("title", in: change.after)        // .text("Groceries for Sunday")
            let assigned = change.assignedColumnNames ?? []            // ["title"]
            return "\(title ?? .null) \(assigned)"
        }
        return ""
    }
}
