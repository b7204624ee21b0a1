import BoutiqueDB
import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

@testable import BoutiqueDocumentationListings

// The Sync article's test: the synced tables of this version only grew since the shipped one.

extension Sync {
    @Suite struct SchemaTests {
        @MainActor
        @Test func syncedTablesOnlyGrow() async throws {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID()).db")
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) } }
            let server = SyncServer(store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()))
            let shippedPlan = BoutiqueMigrationPlan(Array(AppMigrations.plan.migrations.dropLast()))

            let shipped = try await BoutiqueDB.open(url: url, migrations: shippedPlan)
            try await BoutiqueSync(database: shipped, tables: [Note.self, Tag.self], server: .inProcess(server)).checkSchema()
            await shipped.close()

            let current = try await BoutiqueDB.open(url: url, migrations: AppMigrations.plan)
            try await BoutiqueSync(database: current, tables: [Note.self, Tag.self], server: .inProcess(server)).checkSchema()
            await current.close()
        }
    }
}
