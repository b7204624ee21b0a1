import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// Devices on different app versions: values wait for the schema that has room for them, older
/// versions never overwrite what they do not know, and only additive changes pass the check.
@Suite struct AppVersionTests {
    @Test func valuesForAColumnThisVersionLacksWaitForTheMigration() async throws {
        let directory = try SyncTemporaryDirectory()
        let server = try await makeServer()
        let newer = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.upgraded)
        let newerSync = try await BoutiqueSync(database: newer, tables: ["note"], server: .inProcess(server))
        try await newer.write { conn in
            try conn.execute("INSERT INTO note(id, title, color) VALUES ('n1', 'painted', 'red')")
        }
        _ = try await newerSync.synchronize()

        let url = directory.file("older.db")
        var older = try await DatabaseActor.open(url: url, migrations: SyncTestSchema.plan)
        var olderSync = try await BoutiqueSync(database: older, tables: ["note"], server: .inProcess(server))
        _ = try await olderSync.synchronize()
        #expect(try await older.rows("note") == [["n1", "painted", "NULL", "NULL"]])
        // The older version edits the title only: it must not wipe the color it cannot see.
        try await older.write { conn in try conn.execute("UPDATE note SET title = 'renamed' WHERE id = 'n1'") }
        _ = try await olderSync.synchronize()
        _ = try await newerSync.synchronize()
        #expect(try await newer.rows("note") == [["n1", "renamed", "NULL", "NULL", "red"]])

        // The app updates: the migration adds the column and the parked value lands in it.
        await older.close()
        older = try await DatabaseActor.open(url: url, migrations: SyncTestSchema.upgraded)
        olderSync = try await BoutiqueSync(database: older, tables: ["note"], server: .inProcess(server))
        _ = try await olderSync.synchronize()
        #expect(try await older.rows("note") == [["n1", "renamed", "NULL", "NULL", "red"]])
        await older.close()
        await newer.close()
    }

    @Test func tablesThisVersionDoesNotSyncKeepTheirValuesUntilItDoes() async throws {
        let directory = try SyncTemporaryDirectory()
        let server = try await makeServer()
        let newer = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let newerSync = try await BoutiqueSync(database: newer, tables: ["note", "tag"], server: .inProcess(server))
        try await newer.write { conn in
            try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'x')")
            try conn.execute("INSERT INTO tag(id, noteID, label) VALUES ('t1', 'n1', 'urgent')")
        }
        _ = try await newerSync.synchronize()
        let url = directory.file("older.db")
        var older = try await DatabaseActor.open(url: url, migrations: SyncTestSchema.plan)
        var olderSync = try await BoutiqueSync(database: older, tables: ["note"], server: .inProcess(server))
        _ = try await olderSync.synchronize()
        #expect(try await older.rows("tag").isEmpty)
        await older.close()
        older = try await DatabaseActor.open(url: url, migrations: SyncTestSchema.plan)
        olderSync = try await BoutiqueSync(database: older, tables: ["note", "tag"], server: .inProcess(server))
        _ = try await olderSync.synchronize()
        #expect(try await older.rows("tag") == [["t1", "n1", "urgent"]])
        await older.close()
        await newer.close()
    }

    @Test func onlyAdditiveChangesPassTheSchemaCheck() async throws {
        let directory = try SyncTemporaryDirectory()
        let server = try await makeServer()
        let url = directory.file("app.db")
        var database = try await DatabaseActor.open(url: url, migrations: SyncTestSchema.plan)
        var sync = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(server))
        try await sync.checkSchema()
        await database.close()

        database = try await DatabaseActor.open(url: url, migrations: SyncTestSchema.upgraded)
        sync = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(server))
        try await sync.checkSchema()
        await database.close()

        database = try await DatabaseActor.open(url: url, migrations: BoutiqueMigrationPlan {
            SyncTestSchema.v1
            SyncTestSchema.v2
            BoutiqueMigration("v3_drop_body") { conn in try conn.execute("ALTER TABLE note DROP COLUMN body") }
        })
        sync = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(server))
        await #expect(throws: BoutiqueError.syncSchemaChange(
            table: "note", reason: "column 'body' was removed or renamed; synced columns can only be added")) {
            try await sync.checkSchema()
        }
        await #expect(throws: BoutiqueError.self) { _ = try await sync.synchronize() }
        await database.close()
    }
}
