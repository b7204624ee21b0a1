import BoutiqueDB
import Foundation
import Testing

/// Comparing the database with the tables the code expects.
@Suite struct SchemaDifferenceTests {
    static let note = TableSchema("note", columns: [
        .init("id", type: "TEXT"),
        .init("title", type: "TEXT"),
        .init("body", type: "text"),
        .init("updatedAt", type: "REAL"),
        .init("isPinned", type: "INTEGER"),
    ])

    @MainActor
    @Test func aMatchingSchemaHasNoDifferences() async throws {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
        #expect(try await db.schemaDifferences(expected: [Self.note]) == [])
        await db.close()
    }

    @Test func everyKindOfDifferenceIsReportedAndNothingChanges() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
        try await database.write { conn in
            try conn.execute("INSERT INTO note(id, title, body, updatedAt) VALUES ('1', 'a', '', 0)")
            try conn.execute("CREATE TABLE tag(id INTEGER PRIMARY KEY, name TEXT)")
        }
        let schemaBefore = try await database.read { conn in try conn.fetchAll("SELECT sql FROM sqlite_schema") }
        let expected = [
            TableSchema("note", columns: [
                .init("id", type: "TEXT"),
                .init("title", type: "BLOB"),
                .init("body", type: "TEXT", isNotNull: false),
                .init("archivedAt", type: "REAL", isNotNull: false),
            ]),
            TableSchema("tag", columns: [.init("id", type: "INTEGER"), .init("name", type: "TEXT")]),
            TableSchema("folder", columns: [.init("id", type: "INTEGER")]),
        ]
        let differences = try await database.schemaDifferences(expected: expected)
        #expect(differences == [
            .typeMismatch(table: "note", column: "title", expected: "BLOB", actual: "TEXT"),
            .nullabilityMismatch(table: "note", column: "body", expectedNotNull: false),
            .missingColumn(table: "note", column: "archivedAt"),
            .nullabilityMismatch(table: "tag", column: "name", expectedNotNull: true),
            .missingTable("folder"),
        ])
        #expect(differences.map(\.description).contains("table folder is missing"))
        #expect(try await database.read { conn in try conn.fetchAll("SELECT sql FROM sqlite_schema") } == schemaBefore)
        #expect(try await database.read { conn in try conn.count("note") } == 1)
        await database.close()
    }
}
