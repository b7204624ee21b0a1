@testable import BoutiqueSync
@testable import BoutiqueSyncServer
import Foundation
import Testing

/// Only the columns an app names as collaborative text merge as text: a plain BLOB column whose values
/// happen to begin as a collaborative text value does (`00 42 54 58`) syncs its bytes unchanged, by
/// last-writer-wins, between devices and through the server, whether or not they would read as text.
@Suite struct CollaborativeTextColumnsTests {
    static let files = BoutiqueMigration("v2_files") { conn in
        try conn.execute("CREATE TABLE file(id TEXT PRIMARY KEY NOT NULL, name TEXT, data BLOB)")
    }
    static let plan = BoutiqueMigrationPlan {
        SyncTestSchema.v1
        files
    }

    /// Bytes that begin as a collaborative text state does, and do not read as one.
    static let damaged = DatabaseValue.blob([0x00, 0x42, 0x54, 0x58, 2, 0xFF, 0xFF, 0x01])

    /// Bytes that read as collaborative text operations (an app's own format may well look so).
    static func operations(_ text: String, by writer: String) throws -> DatabaseValue {
        var note = CollaborativeText()
        return CollaborativeTextValue.operations([try note.insert(text, at: 0, by: writer)]).value
    }

    @Test(arguments: StoreKind.allCases) func aPlainBlobColumnSyncsItsBytesUnchangedWhateverTheyStartWith(_ kind: StoreKind) async throws {
        try await kind.withStore { store in try await Self.plainBlobs(store: store) }
    }

    static func plainBlobs(store: any SyncStore) async throws {
        let server = SyncServer(store: store)
        var devices: [DatabaseActor] = []
        var syncs: [BoutiqueSync] = []
        for _ in 0..<2 {
            let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: plan)
            devices.append(database)
            syncs.append(try await BoutiqueSync(
                database: database, tables: ["note", "file"], server: .inProcess(server), options: SyncOptions(collaborativeText: ["note.body"])))
        }
        func settle() async throws {
            for _ in 0..<2 { for sync in syncs { _ = try await sync.synchronize() } }
        }
        func data(_ device: Int, _ key: String) async throws -> DatabaseValue? {
            try await devices[device].read { conn in try conn.fetchOne("SELECT data FROM file WHERE id = ?", [.text(key)])?.values.first }
        }
        let first = try operations("first", by: "a"), second = try operations("second", by: "b")
        try await devices[0].write { conn in
            try conn.execute("INSERT INTO file(id, name, data) VALUES ('damaged', 'x', ?), ('decodes', 'y', ?)", [damaged, first])
            try conn.execute("INSERT INTO note(id, title, body) VALUES ('n1', 'Plans', 'one two')")
        }
        try await settle()
        for device in 0..<2 {
            #expect(try await data(device, "damaged") == damaged, "device \(device)")
            #expect(try await data(device, "decodes") == first, "device \(device)")
        }
        // Concurrent writes of the blob: the later wins whole, as for any column; the body still merges.
        try await devices[0].write { conn in
            try conn.execute("UPDATE file SET data = ? WHERE id = 'decodes'", [try operations("again", by: "a")])
            try conn.execute("UPDATE note SET body = 'zero one two' WHERE id = 'n1'")
        }
        try await Task.sleep(for: .milliseconds(3))
        try await devices[1].write { conn in
            try conn.execute("UPDATE file SET data = ? WHERE id = 'decodes'", [second])
            try conn.execute("UPDATE note SET body = 'one two three' WHERE id = 'n1'")
        }
        try await settle()
        for device in 0..<2 {
            #expect(try await data(device, "decodes") == second, "device \(device)")
            #expect(try await data(device, "damaged") == damaged, "device \(device)")
            let body = try await devices[device].read { conn in try conn.fetchOne("SELECT body FROM note WHERE id = 'n1'")?.values.first }
            #expect(body == .text("zero one two three"))
        }
        let state = try await server.store.read(tenant: "default") { store in try store.rowState(table: "file", key: .text("decodes")) }
        #expect(state?.cells["data"]?.value == second, "the server keeps the bytes as written")
        #expect(await syncs[0].takeReportedRefusals().isEmpty)
        #expect(await syncs[1].takeReportedRefusals().isEmpty)
        for database in devices { await database.close() }
    }
}
