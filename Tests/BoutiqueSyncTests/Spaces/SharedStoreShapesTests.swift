@testable import BoutiqueSync
@testable import BoutiqueSyncServer
import Foundation
import Testing

/// Servers sharing one store (instances on one PostgreSQL database) keep each tenant's table shapes
/// in memory: what one instance learns from a device, another sees at its next push, not at its
/// restart.
@Suite struct SharedStoreShapesTests {
    @Test(arguments: StoreKind.allCases) func aColumnMadeCollaborativeThroughOneInstanceMergesAsTextOnTheOther(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let first = SyncServer(store: store)
            let second = SyncServer(store: store)
            // A device of the app's earlier version syncs through the second instance, which keeps the
            // note table's shape (no collaborative column) in memory.
            let plainDatabase = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
            let plain = try await BoutiqueSync(database: plainDatabase, tables: ["note"], server: .inProcess(second))
            try await plainDatabase.write { conn in try conn.execute("INSERT INTO note(id, title, body) VALUES ('n1', 'Plans', 'one')") }
            _ = try await plain.synchronize()

            // The updated app makes the body collaborative: its first push, through the first instance,
            // says so. Its later ones reach the second (a load balancer's choice) and say nothing more.
            let balancer = RestartableServer(first)
            let textDatabase = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
            let text = try await BoutiqueSync(database: textDatabase, tables: ["note"], server: .inProcess(balancer), options: TextDevices.options)
            _ = try await text.synchronize()
            balancer.restart(second)
            try await textDatabase.write { conn in try conn.execute("UPDATE note SET body = 'one two' WHERE id = 'n1'") }
            _ = try await text.synchronize()

            // The second instance merged the edit as text, not as an opaque value over the text.
            let state = try await store.read(tenant: "default") { store in try store.rowState(table: "note", key: .text("n1")) }
            #expect(state?.visibleValues(textColumns: ["body"])["body"] == .text("one two"))
            let otherDatabase = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
            let other = try await BoutiqueSync(database: otherDatabase, tables: ["note"], server: .inProcess(first), options: TextDevices.options)
            _ = try await other.synchronize()
            #expect(try await otherDatabase.rows("note") == [["n1", "Plans", "one two", "NULL"]])
            for database in [plainDatabase, textDatabase, otherDatabase] { await database.close() }
        }
    }
}
