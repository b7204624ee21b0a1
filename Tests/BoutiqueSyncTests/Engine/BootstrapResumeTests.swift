@testable import BoutiqueSync
import BoutiqueSQLite
import BoutiqueSyncServer
import Foundation
import Testing

/// A bootstrap commits page by page: an interrupted one keeps what it merged and asks only for the
/// rest, foreign keys hold at every commit, a re-bootstrap still drops what the server forgot, and
/// progress reports count up to the total.
@MainActor @Suite struct BootstrapResumeTests {
    /// Attachments and folders come before notes in the snapshot's (table, key) order: a child before
    /// its parent, and folders form a tree whose children sort before their parents.
    static let plan = BoutiqueMigrationPlan {
        SyncTestSchema.v1
        BoutiqueMigration("v2_attachments") { conn in
            try conn.execute("""
                CREATE TABLE attachment(id TEXT PRIMARY KEY NOT NULL, noteID TEXT NOT NULL REFERENCES note(id) ON DELETE CASCADE, name TEXT);
                CREATE TABLE folder(id TEXT PRIMARY KEY NOT NULL, parentID TEXT REFERENCES folder(id), name TEXT);
                """)
        }
    }

    /// A server with notes n01…n`count`, written by a device of its own.
    static func server(notes count: Int) async throws -> SyncServer {
        let server = try await makeServer()
        let writer = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        try await writer.write { conn in
            for index in 1...count {
                try conn.execute("INSERT INTO note(id, title) VALUES (?, ?)", [.text(noteID(index)), .text("note \(index)")])
            }
        }
        _ = try await BoutiqueSync(database: writer, tables: ["note"], server: .inProcess(server)).synchronize()
        await writer.close()
        return server
    }

    nonisolated static func noteID(_ index: Int) -> String { index < 10 ? "n0\(index)" : "n\(index)" }

    static func count(_ table: String, in database: DatabaseActor) async throws -> Int {
        try await database.read { conn in
            guard case .integer(let count)? = try conn.fetchValue("SELECT count(*) FROM \(SQLIdentifier.quote(table))") else { return -1 }
            return Int(count)
        }
    }

    @Test func anInterruptedBootstrapKeepsItsPagesAndResumesAfterThem() async throws {
        let server = try await Self.server(notes: 10)
        let directory = try SyncTemporaryDirectory()
        let url = directory.file("device.db")
        var database = try await DatabaseActor.open(url: url, migrations: SyncTestSchema.plan)
        let transport = PagingTransport(.inProcess(server), pageSize: 3)
        transport.failAfter(pages: 2)
        var sync = try await BoutiqueSync(database: database, tables: ["note"], server: transport)
        await #expect(throws: BoutiqueError.self) { _ = try await sync.synchronize() }
        #expect(try await Self.count("note", in: database) == 6, "the two pages merged before the failure are committed")
        await sync.stop()
        await database.close()

        // Meanwhile the server changes a row of a page already merged and gains one that sorts before
        // the device's position: the pull from the first page's cursor brings both.
        let other = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let otherSync = try await BoutiqueSync(database: other, tables: ["note"], server: .inProcess(server))
        _ = try await otherSync.synchronize()
        try await other.write { conn in
            try conn.execute("UPDATE note SET title = 'changed meanwhile' WHERE id = 'n02'")
            try conn.execute("INSERT INTO note(id, title) VALUES ('n00', 'added meanwhile')")
        }
        _ = try await otherSync.synchronize()

        // A restart: a new process opens the file.
        database = try await DatabaseActor.open(url: url, migrations: SyncTestSchema.plan)
        transport.heal()
        sync = try await BoutiqueSync(database: database, tables: ["note"], server: transport)
        _ = try await sync.synchronize()
        let positions = transport.positions.withLock { $0 }
        #expect(positions.count == 4, "2 pages before the failure, the 2 after them once resumed: \(positions)")
        let resumedAfter = positions.count > 2 ? positions[2] : nil
        #expect(resumedAfter == SnapshotPosition(table: "note", key: .text("n06")), "the resumed bootstrap starts after the last row it committed")
        #expect(try await database.rows("note") == other.rows("note"), "every row arrived once, the changes made meanwhile too")
        #expect(try await Self.count("note", in: database) == 11)
        await database.close()
        await other.close()
    }

    @Test func foreignKeysHoldAtEveryCommitWithParentsInLaterPages() async throws {
        let server = try await makeServer()
        let writer = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: Self.plan)
        try await writer.write { conn in
            try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'one'), ('n2', 'two'), ('n3', 'three')")
            try conn.execute("INSERT INTO attachment(id, noteID, name) VALUES ('a1', 'n3', 'x'), ('a2', 'n1', 'y'), ('a3', 'n2', 'z')")
            // A tree: f9 is the root, f5 its child, f1 and f2 grandchildren; keys sort children first.
            try conn.execute("INSERT INTO folder(id, parentID, name) VALUES ('f9', NULL, 'root'), ('f5', 'f9', 'mid')")
            try conn.execute("INSERT INTO folder(id, parentID, name) VALUES ('f1', 'f5', 'leaf'), ('f2', 'f9', 'leaf')")
        }
        let tables = ["note", "attachment", "folder"]
        _ = try await BoutiqueSync(database: writer, tables: tables, server: .inProcess(server)).synchronize()

        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: Self.plan)
        let transport = PagingTransport(.inProcess(server), pageSize: 2)
        let sync = try await BoutiqueSync(database: database, tables: tables, server: transport)
        var attempts = 0
        var shown: [Int] = []
        while true {
            // One page a run: every page's commit is what the file holds after a run.
            transport.failAfter(pages: 1)
            attempts += 1
            do {
                _ = try await sync.synchronize()
                break
            } catch {
                try #require(attempts < 20)
            }
            let broken = try await database.read { conn in try conn.fetchAll("SELECT * FROM pragma_foreign_key_check") }
            #expect(broken.isEmpty, "foreign keys hold after page \(attempts)")
            shown.append(try await Self.count("attachment", in: database) + Self.count("folder", in: database))
        }
        // Pages of two: [a1 a2] [a3 f1] [f2 f5] [f9 n1] [n2 n3] and an empty last one. A child shows once
        // its parent (and the parent's parent) did: f9 brings f5, f2 and then f1; n1 brings a2.
        #expect(shown == [0, 0, 0, 5, 7], "children waited for their parents: \(shown)")
        for table in tables { #expect(try await database.rows(table) == writer.rows(table), "\(table) arrived whole") }
        #expect(sync.status.pendingCount == 0, "no child was deleted as an orphan")
        let waiting = try await database.read { conn in try conn.fetchValue("SELECT count(*) FROM boutique_sync_snapshot_waiting") }
        #expect(waiting == .integer(0))
        await database.close()
        await writer.close()
    }

    @Test func aReBootstrapAcrossInterruptedPagesDropsWhatTheServerForgotAndKeepsLocalWrites() async throws {
        let server = try await Self.server(notes: 9)
        let a = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let syncA = try await BoutiqueSync(database: a, tables: ["note"], server: .inProcess(server))
        _ = try await syncA.synchronize()
        let b = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let transport = PagingTransport(.inProcess(server), pageSize: 2)
        let syncB = try await BoutiqueSync(database: b, tables: ["note"], server: transport)
        _ = try await syncB.synchronize()
        // n02 (in the first page) and n08 (after the interruption) are deleted while b is away, and
        // the server forgets them.
        try await a.write { conn in try conn.execute("DELETE FROM note WHERE id IN ('n02', 'n08')") }
        _ = try await syncA.synchronize()
        _ = try await server.collectGarbage(tenant: "default", inactiveAfterMilliseconds: 0)

        transport.failAfter(pages: 2)
        await #expect(throws: BoutiqueError.self) { _ = try await syncB.synchronize() }
        #expect(try await b.read { conn in try conn.fetchValue("SELECT count(*) FROM boutique_sync_snapshot_seen") } == .integer(4))
        // A local write the server has not acknowledged, made during the resumed bootstrap (after its
        // first page), to a row the server never had.
        transport.heal()
        transport.afterPage.withLock { hook in
            hook = { _ in try await b.write { conn in try conn.execute("INSERT OR IGNORE INTO note(id, title) VALUES ('local', 'mine')") } }
        }
        _ = try await syncB.synchronize()
        transport.afterPage.withLock { $0 = nil }
        let ids = try await b.rows("note").map { $0[0] }
        #expect(!ids.contains("n02") && !ids.contains("n08"), "rows the server forgot are gone, before and after the interruption")
        #expect(ids.contains("local"), "the unacknowledged local row stays")
        #expect(ids.filter { $0 != "local" } == (try await a.rows("note").map { $0[0] }))
        #expect(try await b.read { conn in try conn.fetchValue("SELECT count(*) FROM boutique_sync_snapshot_seen") } == .integer(0))
        _ = try await syncB.synchronize()
        #expect(try await server.snapshot(SnapshotRequest(replica: "reader", after: nil, limit: 1_000), tenant: "default").rows
            .contains { $0.key == .text("local") }, "the local row is pushed afterwards")
        await a.close()
        await b.close()
    }

    @Test func progressIsMonotonicAndEndsAtTheTotal() async throws {
        let server = try await Self.server(notes: 10)
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let transport = PagingTransport(.inProcess(server), pageSize: 3)
        let sync = try await BoutiqueSync(database: database, tables: ["note"], server: transport)
        let reports = Lock<[(Int, Int?)]>([])
        await sync.session.setReporter(SyncSessionReporter(
            phase: { _, _ in }, progress: { progress in reports.withLock { $0.append((progress.rowsDone, progress.totalRows)) } },
            refusal: { _ in }))
        transport.failAfter(pages: 2)
        await #expect(throws: BoutiqueError.self) { _ = try await sync.synchronize() }
        transport.heal()
        _ = try await sync.synchronize()
        let seen = reports.withLock { $0 }
        #expect(seen.map(\.0) == [3, 6, 9, 10], "rows so far, counting the pages merged before the interruption")
        #expect(seen.allSatisfy { $0.1 == 10 }, "every report knows the total")
    }
}
