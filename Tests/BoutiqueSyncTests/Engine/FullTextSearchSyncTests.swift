import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// The FTS5 index of ``SyncNote``.
@Table("noteSearch")
struct SyncNoteSearch: FTS5 {
    let id: String
    let title: String
    let body: String?
}

/// A full-text index never syncs: it is derived from its content table, which does, and each device's
/// own triggers index the rows it pulls.
@MainActor @Suite struct FullTextSearchSyncTests {
    static let plan = BoutiqueMigrationPlan {
        SyncTestSchema.v1
        BoutiqueMigration("v2_search_notes") { conn in
            try conn.createFTS5Table(SyncNoteSearch.self, content: SyncNote.self)
        }
        BoutiqueMigration("v3_scratch") { conn in
            try conn.execute("CREATE VIRTUAL TABLE scratch USING fts5(words)")
        }
    }

    private func search(_ pattern: String, on database: DatabaseActor) async throws -> [String] {
        try await database.read { conn in
            try SyncNoteSearch.where { $0.match(pattern) }.order { $0.rank }.select { $0.id }.fetchAll(conn)
        }
    }

    @Test func theIndexAndFTS5sTablesAreRefusedByName() async throws {
        let server = try await makeServer()
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: Self.plan)
        let cases = [
            ("noteSearch", "it is an FTS5 full-text index, which each device builds itself; sync its content table 'note' instead"),
            ("noteSearch_data", "it is storage SQLite keeps for a virtual table (such as an FTS5 full-text index), not a table of the app"),
            ("NOTESEARCH_IDX", "it is storage SQLite keeps for a virtual table"),
            ("scratch", "it is an FTS5 table, whose rows are not in the change log"),
        ]
        for (table, reason) in cases {
            do {
                _ = try await BoutiqueSync(database: database, tables: [table], server: .inProcess(server))
                Issue.record("\(table) was accepted")
            } catch let error as BoutiqueError {
                guard case .syncConfiguration(let named, let text) = error else {
                    Issue.record("\(table): \(error)")
                    continue
                }
                #expect(named == table)
                #expect(text.hasPrefix(reason), "\(table): \(text)")
            }
        }
        await database.close()
    }

    @Test func aDevicePullingNotesFindsThemWithItsOwnIndex() async throws {
        let server = try await makeServer()
        let phone = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: Self.plan)
        let laptop = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: Self.plan)
        let phoneSync = try await BoutiqueSync(database: phone, tables: [SyncNote.self], server: .inProcess(server))
        let laptopSync = try await BoutiqueSync(database: laptop, tables: [SyncNote.self], server: .inProcess(server))

        try await phone.write { conn in
            try SyncNote.insert {
                SyncNote(id: "n1", title: "Groceries", body: "oat milk, lemons", rank: nil)
                SyncNote(id: "n2", title: "Garden", body: "water the lemon tree", rank: nil)
            }.execute(conn)
        }
        #expect(try await phoneSync.synchronize().pushed == 2, "the notes, and nothing of the index")
        #expect(try await laptopSync.synchronize().applied == 2)
        #expect(try await search("lemon", on: laptop) == ["n2"])
        #expect(try await search("lemon*", on: laptop).sorted() == ["n1", "n2"])

        try await laptop.write { conn in
            try SyncNote.update { $0.body = "coffee" }.where { $0.id == "n1" }.execute(conn)
            try SyncNote.where { $0.id == "n2" }.delete().execute(conn)
        }
        #expect(try await laptopSync.synchronize().pushed == 2, "the update and the delete, and nothing of the index")
        _ = try await phoneSync.synchronize()
        #expect(try await search("coffee", on: phone) == ["n1"])
        #expect(try await search("lemon*", on: phone).isEmpty, "the pulled update and delete left the index")
        for database in [phone, laptop] {
            // FTS5's own check that the index matches the content table, row for row.
            try await database.write { conn in
                try conn.execute(#"INSERT INTO "noteSearch"("noteSearch", rank) VALUES ('integrity-check', 1)"#)
            }
        }
        await phone.close()
        await laptop.close()
    }
}
