import BoutiqueDB
import Foundation
import Testing

@Table
private struct Gadget: Sendable {
    let id: Int
    var name: String
    var weight: Double?
    @Column(generated: .virtual("upper(name)")) let shout: String
}

@Suite("Schema check against @Table models")
@MainActor
struct SchemaModelCheckTests {
    @Test func matchingSchemaHasNoDifferences() async throws {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: BoutiqueMigrationPlan {
            BoutiqueMigration("gadgets") { conn in
                try conn.execute("CREATE TABLE gadget (id INTEGER PRIMARY KEY NOT NULL, name TEXT NOT NULL, weight REAL, shout TEXT GENERATED ALWAYS AS (upper(name)) VIRTUAL)")
            }
        })
        #expect(try await db.schemaDifferences(models: [Gadget.self]).isEmpty)
        await db.close()
    }

    @Test func driftIsReportedAndNothingChanges() async throws {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: BoutiqueMigrationPlan {
            BoutiqueMigration("gadgets") { conn in
                try conn.execute("CREATE TABLE gadget (id INTEGER PRIMARY KEY NOT NULL, name TEXT, weight TEXT)")
                try conn.execute("INSERT INTO gadget (id, name, weight) VALUES (1, 'kettle', 'heavy')")
            }
        })
        let differences = try await db.schemaDifferences(models: [Gadget.self])
        #expect(differences.count == 2)
        #expect(differences.contains { "\($0)".contains("name") })
        #expect(differences.contains { "\($0)".contains("weight") })
        let rows = try await db.read { conn in try conn.fetchValue("SELECT count(*) FROM gadget") }
        #expect(rows == .integer(1))
        await db.close()
    }
}
