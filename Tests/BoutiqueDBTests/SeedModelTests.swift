import BoutiqueDB
import Foundation
import Testing

/// The seed's model, section 2, word for word (with `import BoutiqueDB`).
@Table
struct Note: Sendable {
    @Column(primaryKey: true) let id: UUID
    var title: String
    var body: String
    var updatedAt: Date = Date()
}

/// The seed's section 4 with the query builder: writes and reads through `conn.connection`.
@Suite struct SeedModelTests {
    @MainActor
    @Test func theSeedsWriteAndReadCompileAndRun() async throws {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)

        // Write Transaction
        try await db.write { conn in
            try Note.insert { Note(id: UUID(), title: "New Note", body: "") }
                .execute(conn.connection)
        }
        try await db.write { conn in
            try Note.insert { Note(id: UUID(), title: "Older Note", body: "", updatedAt: Date(timeIntervalSince1970: 0)) }
                .execute(conn.connection)
        }

        // Read Query
        let notes = try await db.read { conn in
            try Note.all.order { $0.updatedAt.desc() }.fetchAll(conn.connection)
        }
        #expect(notes.map(\.title) == ["New Note", "Older Note"])
        await db.close()
    }
}
