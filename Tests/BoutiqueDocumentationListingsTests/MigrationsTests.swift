import BoutiqueDB
import Testing

@testable import BoutiqueDocumentationListings

// The Migrations article's test: the models and the migrated schema agree.

extension Migrations {
    @Suite struct SchemaTests {
        @MainActor
        @Test func migrationsMatchTheModels() async throws {
            let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
            #expect(try await db.schemaDifferences(models: [Note.self]).isEmpty)
            await db.close()
        }
    }
}
