import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// Two devices and a server: what one writes, the other gets, by the merge rule.
@MainActor @Suite struct SynchronizeTests {
    @Test func insertsUpdatesAndDeletesReachTheOtherDevice() async throws {
        let server = try await makeServer()
        let a = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let b = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let syncA = try await BoutiqueSync(database: a, tables: ["note", "tag"], server: .inProcess(server))
        let syncB = try await BoutiqueSync(database: b, tables: ["note", "tag"], server: .inProcess(server))

        try await a.write { conn in
            try conn.execute("INSERT INTO note(id, title, body, rank) VALUES ('n1', 'Groceries', 'milk', 1)")
            try conn.execute("INSERT INTO note(id, title, body, rank) VALUES ('n2', 'Work', NULL, 2)")
        }
        let first = try await syncA.synchronize()
        #expect(first.pushed == 2)
        let pulled = try await syncB.synchronize()
        #expect(pulled.applied == 2)
        #expect(try await b.rows("note") == [["n1", "Groceries", "milk", "1"], ["n2", "Work", "NULL", "2"]])

        try await b.write { conn in
            try conn.execute("UPDATE note SET body = 'milk, eggs' WHERE id = 'n1'")
            try conn.execute("DELETE FROM note WHERE id = 'n2'")
        }
        try await a.write { conn in try conn.execute("UPDATE note SET title = 'Shopping' WHERE id = 'n1'") }
        _ = try await syncB.synchronize()
        _ = try await syncA.synchronize()
        _ = try await syncB.synchronize()
        #expect(try await a.rows("note") == [["n1", "Shopping", "milk, eggs", "1"]], "each device's column survives")
        #expect(try await b.rows("note") == [["n1", "Shopping", "milk, eggs", "1"]])
        #expect(syncA.status.pendingCount == 0)
        #expect(syncA.status.lastSync != nil)
        await a.close()
        await b.close()
    }

    /// A first sync pushes the device's rows, then bootstraps from a snapshot that holds them too:
    /// `applied` counts what came from elsewhere (others' rows, and own rows others changed), not the
    /// device's own rows sent back.
    @Test func aFirstSyncReportsOnlyWhatCameFromElsewhereAsApplied() async throws {
        let server = try await makeServer()
        let a = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let b = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let c = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let syncA = try await BoutiqueSync(database: a, tables: ["note"], server: .inProcess(server))
        let syncB = try await BoutiqueSync(database: b, tables: ["note"], server: .inProcess(server))
        let syncC = try await BoutiqueSync(database: c, tables: ["note"], server: .inProcess(server))
        try await b.write { conn in
            for index in 0..<3 { try conn.execute("INSERT INTO note(id, title) VALUES (?, 'b')", [.text("b\(index)")]) }
        }
        #expect(try await syncB.synchronize().pushed == 3)
        try await c.write { conn in
            for index in 0..<4 { try conn.execute("INSERT INTO note(id, title) VALUES (?, 'c')", [.text("c\(index)")]) }
        }
        let first = try await syncC.synchronize()
        #expect(first.pushed == 4)
        #expect(first.applied == 3, "B's three rows, not C's four that the snapshot sent back")
        #expect(try await c.rows("note").count == 7)

        // A pushes its rows and B edits one of them before A's first pull: that edit came from elsewhere.
        try await a.write { conn in
            for index in 0..<2 { try conn.execute("INSERT INTO note(id, title) VALUES (?, 'a')", [.text("a\(index)")]) }
        }
        #expect(try await syncA.push() == 2)
        #expect(try await syncB.synchronize().applied == 6)
        try await b.write { conn in try conn.execute("UPDATE note SET title = 'edited by b' WHERE id = 'a1'") }
        _ = try await syncB.synchronize()
        let bootstrap = try await syncA.synchronize()
        #expect(bootstrap.applied == 8, "seven rows of B and C, and B's edit of a1; not a0")
        let rowsOfA = try await a.rows("note")
        #expect(rowsOfA.contains(["a1", "edited by b", "NULL", "NULL"]), "\(rowsOfA)")
        await a.close()
        await b.close()
        await c.close()
    }

    @Test func pulledChangesAreNotPushedBackButReachTheChangeFeed() async throws {
        let server = try await makeServer()
        let a = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let b = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let syncA = try await BoutiqueSync(database: a, tables: ["note"], server: .inProcess(server))
        let syncB = try await BoutiqueSync(database: b, tables: ["note"], server: .inProcess(server))
        _ = try await syncB.synchronize()
        let token = try await b.currentToken()
        try await a.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'Hi')") }
        _ = try await syncA.synchronize()
        _ = try await syncB.synchronize()
        var seen: [ChangeTransaction] = []
        for try await transaction in b.changes(since: token) {
            seen.append(transaction)
            break
        }
        #expect(seen.first?.changes.first?.table == "note", "the pulled insert is in the change log")
        let again = try await syncB.synchronize()
        #expect(again.pushed == 0, "a pulled transaction is never pushed back")
        await a.close()
        await b.close()
    }
}
