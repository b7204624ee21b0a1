import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// How pulled changes land: in one transaction under deferred foreign keys, row by row for tables
/// that ask for it, and with the change log pruned only of what the server acknowledged.
@Suite struct PullApplicationTests {
    @Test func aChildBeforeItsParentInOneBatchApplies() async throws {
        let server = try await makeServer()
        let a = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let b = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let syncA = try await BoutiqueSync(database: a, tables: ["note", "tag"], server: .inProcess(server))
        let syncB = try await BoutiqueSync(database: b, tables: ["note", "tag"], server: .inProcess(server))
        _ = try await syncB.synchronize()
        try await a.write { conn in
            try conn.execute("PRAGMA defer_foreign_keys = ON")
            try conn.execute("INSERT INTO tag(id, noteID, label) VALUES ('t1', 'n1', 'child first')")
            try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'parent second')")
        }
        _ = try await syncA.synchronize()
        let report = try await syncB.synchronize()
        #expect(report.applied == 2)
        #expect(try await b.rows("tag") == [["t1", "n1", "child first"]])
        await a.close()
        await b.close()
    }

    /// The schema with `tag` stored as a rowid table or `WITHOUT ROWID` (whose foreign-key violations
    /// SQLite reports without a rowid).
    static func plan(tagWithoutRowID: Bool) -> BoutiqueMigrationPlan {
        guard tagWithoutRowID else { return SyncTestSchema.plan }
        return BoutiqueMigrationPlan {
            BoutiqueMigration("v1_notes") { conn in
                try conn.execute("""
                    CREATE TABLE note(id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL DEFAULT '', body TEXT, rank INTEGER);
                    CREATE TABLE tag(id TEXT PRIMARY KEY NOT NULL, noteID TEXT REFERENCES note(id) ON DELETE CASCADE, label TEXT) WITHOUT ROWID;
                    """)
            }
        }
    }

    @Test(arguments: [false, true])
    func aChildAddedWhileItsParentWasDeletedGoesWithTheParent(tagWithoutRowID: Bool) async throws {
        let server = try await makeServer()
        let plan = Self.plan(tagWithoutRowID: tagWithoutRowID)
        let a = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: plan)
        let b = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: plan)
        let syncA = try await BoutiqueSync(database: a, tables: ["note", "tag"], server: .inProcess(server))
        let syncB = try await BoutiqueSync(database: b, tables: ["note", "tag"], server: .inProcess(server))
        try await a.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'parent'), ('n2', 'kept')") }
        _ = try await syncA.synchronize()
        _ = try await syncB.synchronize()
        try await a.write { conn in try conn.execute("DELETE FROM note WHERE id = 'n1'") }
        try await b.write { conn in
            try conn.execute("INSERT INTO tag(id, noteID, label) VALUES ('t1', 'n1', 'orphan'), ('t2', 'n2', 'kept'), ('t3', NULL, 'loose')")
        }
        _ = try await syncA.synchronize()
        _ = try await syncB.synchronize()
        _ = try await syncA.synchronize()
        let kept = [["t2", "n2", "kept"], ["t3", "NULL", "loose"]]
        #expect(try await a.rows("tag") == kept)
        #expect(try await b.rows("tag") == kept)
        #expect(try await b.rows("note") == [["n2", "kept", "NULL", "NULL"]])
        await a.close()
        await b.close()
    }

    @Test func rowLevelTablesTakeTheLatestWholeRow() async throws {
        let server = try await makeServer()
        let options = SyncOptions(rowLevelTables: ["note"])
        let a = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let b = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let syncA = try await BoutiqueSync(database: a, tables: ["note"], server: .inProcess(server), options: options)
        let syncB = try await BoutiqueSync(database: b, tables: ["note"], server: .inProcess(server), options: options)
        try await a.write { conn in try conn.execute("INSERT INTO note(id, title, body) VALUES ('n1', 'title', 'body')") }
        _ = try await syncA.synchronize()
        _ = try await syncB.synchronize()
        try await a.write { conn in try conn.execute("UPDATE note SET title = 'a title' WHERE id = 'n1'") }
        // Both clocks read the wall clock: in the same millisecond the two stamps are equal and the
        // writer ids, random, decide. A later millisecond makes b's write the later one.
        try await Task.sleep(for: .milliseconds(3))
        try await b.write { conn in try conn.execute("UPDATE note SET body = 'b body' WHERE id = 'n1'") }
        _ = try await syncA.synchronize()
        _ = try await syncB.synchronize()
        _ = try await syncA.synchronize()
        // b wrote last: its whole row wins, so a's title change is gone (column merging would keep both).
        #expect(try await a.rows("note") == [["n1", "title", "b body", "NULL"]])
        #expect(try await b.rows("note") == [["n1", "title", "b body", "NULL"]])
        await a.close()
        await b.close()
    }

    @Test func theChangeLogIsPrunedOnlyOfAcknowledgedTransactions() async throws {
        let server = try await makeServer()
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let transport = FlakyTransport(.inProcess(server))
        let sync = try await BoutiqueSync(database: database, tables: ["note"], server: transport)
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'pushed')") }
        _ = try await sync.synchronize()
        transport.offline.store(true, ordering: .relaxed)
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n2', 'not yet')") }
        _ = try? await sync.synchronize()
        let logged = try await database.read { conn in
            try conn.fetchAll("SELECT \"after\" FROM turso_cdc WHERE table_name = 'note'").map { row -> String in
                guard case .blob(let bytes) = row.values[0], let values = try? RecordDecoder.decode(bytes) else { return "?" }
                return values[0].description
            }
        }
        #expect(logged == ["n2"], "the acknowledged insert was pruned, the pending one kept")
        await database.close()
    }
}
