import BoutiqueDB
import Foundation
import Testing

/// The product description's code, sections 1, 3, 4 and 6, as written (raw SQL stands in for the
/// `Note` model's query builder calls).
@Suite struct SeedTests {
    @MainActor
    @Test func theSeedsCodeWorksAsWritten() async throws {
        // 1. The database file
        let filename = "seed-\(UUID().uuidString.lowercased()).db"
        let url = try BoutiqueDB.applicationSupportURL(filename: filename)
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        }
        let db = try await BoutiqueDB.open(url: url, migrations: AppMigrations.plan)

        // 4. Isolation & concurrency safety
        try await db.write { conn in
            try conn.execute(
                "INSERT INTO note(id, title, body, updatedAt) VALUES (?, ?, ?, ?)",
                [.text(UUID().uuidString.lowercased()), "New Note", "", .real(Date().timeIntervalSince1970)])
        }
        let notes = try await db.read { conn in
            try conn.fetchAll("SELECT id, title, body, updatedAt, isPinned FROM note ORDER BY updatedAt DESC")
        }
        #expect(notes.count == 1)
        #expect(notes.first?["title"] == "New Note")
        #expect(notes.first?["isPinned"] == .integer(0))

        // 3. Schema migrations were applied in order.
        #expect(try await db.appliedMigrations.map(\.id) == ["v1_create_notes", "v2_add_pinned_column"])

        // 6. Error handling
        var message = ""
        do {
            try await db.write { conn in
                try conn.execute("INSERT INTO note(id, title, body, updatedAt) VALUES (NULL, NULL, NULL, NULL)")
            }
        } catch let error as BoutiqueError {
            switch error {
            case .sql(let code, let message2):
                message = "SQLite/Turso Engine Error (\(code)): \(message2)"
            case .migrationFailed(let id, let message2):
                message = "Migration '\(id)' failed: \(message2)"
            case .transactionInProgress:
                message = "Write conflict occurred."
            default:
                message = "BoutiqueDB Error: \(error)"
            }
        }
        #expect(message.contains("NOT NULL constraint failed"))
        await db.close()
    }
}
