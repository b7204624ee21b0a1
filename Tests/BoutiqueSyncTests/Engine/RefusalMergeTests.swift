@testable import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// Undoing a refused transaction puts the server's version of its rows back: what the refused writes
/// held goes back to what the server holds, and what the server's version discards of the device's
/// other work is reported as a pull would report it.
@Suite struct RefusalMergeTests {
    /// A server that refuses any note whose title starts with "secret", and two users' devices synced
    /// with it holding note n1.
    struct Devices {
        let server: SyncServer
        let a: DatabaseActor
        let b: DatabaseActor
        let syncA: BoutiqueSync
        let syncB: BoutiqueSync

        static func make(aPlan: BoutiqueMigrationPlan = SyncTestSchema.plan, aOptions: SyncOptions = SyncOptions()) async throws -> Devices {
            let server = SyncServer(store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()), authorize: { _, change in
                !change.columns.contains { column in
                    guard column.name == "title", case .text(let title) = column.value else { return false }
                    return title.hasPrefix("secret")
                }
            })
            let a = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: aPlan)
            let b = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
            let syncA = try await BoutiqueSync(database: a, tables: ["note", "tag"], server: .inProcess(server, user: "ann"), options: aOptions)
            let syncB = try await BoutiqueSync(database: b, tables: ["note", "tag"], server: .inProcess(server, user: "bob"))
            try await b.write { conn in try conn.execute("INSERT INTO note(id, title, body) VALUES ('n1', 'plans', 'years')") }
            _ = try await syncB.synchronize()
            _ = try await syncA.synchronize()
            return Devices(server: server, a: a, b: b, syncA: syncA, syncB: syncB)
        }

        func close() async {
            await a.close()
            await b.close()
        }
    }

    @Test func aRefusedEditOfAColumnNobodyElseWroteGoesBackToItsDefault() async throws {
        // b's schema has no color: the server's version of n1 holds no value for it.
        let d = try await Devices.make(aPlan: SyncTestSchema.upgraded)
        try await d.a.write { conn in try conn.execute("UPDATE note SET title = 'secret', color = 'red' WHERE id = 'n1'") }
        _ = try await d.syncA.synchronize()

        #expect(try await d.a.rows("note") == [["n1", "plans", "years", "NULL", "NULL"]], "the color went back with the title")
        await d.close()
    }

    @Test func anEditTheServersVersionShowsDeletedIsReportedOnceWhenTheRefusalBringsIt() async throws {
        let d = try await Devices.make()
        try await d.b.write { conn in try conn.execute("DELETE FROM note WHERE id = 'n1'") }
        _ = try await d.syncB.synchronize()
        // a has not pulled the delete: its edit is accepted (an update never brings a row back), then
        // its next transaction is refused, and the refusal's answer carries n1 as the server has it.
        try await d.a.write { conn in try conn.execute("UPDATE note SET body = 'kept' WHERE id = 'n1'") }
        _ = try await d.syncA.session.pushAll()
        try await d.a.write { conn in try conn.execute("UPDATE note SET title = 'secret' WHERE id = 'n1'") }
        _ = try await d.syncA.session.pushAll()

        #expect(try await d.a.rows("note") == [])
        _ = try await d.syncA.synchronize()   // the pull then brings the delete itself
        let losses = await d.syncA.takeReportedLosses()
        #expect(losses.map(\.kind) == [.editBeatenByDelete], "reported when the refusal brought the delete, and not again")
        #expect(losses.first?.values == ["body": .text("kept")])
        #expect(try await d.a.rows("note") == [])
        await d.close()
    }

    @Test func anEditOfARowOnlyARefusedInsertShowedIsReportedWhenTheServerHasItDeleted() async throws {
        let d = try await Devices.make()
        try await d.b.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n2', 'from b')") }
        _ = try await d.syncB.synchronize()
        try await d.b.write { conn in try conn.execute("DELETE FROM note WHERE id = 'n2'") }
        _ = try await d.syncB.synchronize()
        // a, which never pulled n2, adds it (refused) and then edits it (accepted: an update never
        // brings the deleted row back).
        try await d.a.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n2', 'secret')") }
        try await d.a.write { conn in try conn.execute("UPDATE note SET body = 'kept' WHERE id = 'n2'") }
        _ = try await d.syncA.synchronize()
        _ = try await d.syncA.synchronize()

        #expect(try await d.a.rows("note").map { $0[0] } == ["n1"])
        let losses = await d.syncA.takeReportedLosses()
        #expect(losses.map(\.kind) == [.editBeatenByDelete], "the edit the server kept is discarded by b's delete")
        #expect(losses.first?.values == ["body": .text("kept")])
        await d.close()
    }

    @Test func anEditOfARowOnlyARefusedInsertShowedIsReportedWhenAnotherDeviceInsertsItWithoutHavingIt() async throws {
        let d = try await Devices.make()
        // a adds n2 (refused: the server holds nothing of it, and a takes the row off) and then edits
        // it (accepted: the server keeps the edit, waiting for a row).
        try await d.a.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n2', 'secret')") }
        try await d.a.write { conn in try conn.execute("UPDATE note SET body = 'kept' WHERE id = 'n2'") }
        _ = try await d.syncA.synchronize()
        #expect(try await d.a.rows("note").map { $0[0] } == ["n1"])
        // b, which has not pulled a's edit, adds a note n2 of its own: its body beats a's edit.
        try await Task.sleep(for: .milliseconds(3))
        try await d.b.write { conn in try conn.execute("INSERT INTO note(id, title, body) VALUES ('n2', 'from b', 'from b')") }
        _ = try await d.syncB.synchronize()
        _ = try await d.syncA.synchronize()

        #expect(try await d.a.rows("note") == [["n1", "plans", "years", "NULL"], ["n2", "from b", "from b", "NULL"]])
        let losses = await d.syncA.takeReportedLosses()
        #expect(losses.map(\.kind) == [.editBeatenByConcurrentEdit], "b's insert overwrote a's edit without having it")
        #expect(losses.first?.values == ["body": .text("kept")])
        await d.close()
    }

    @Test func anEditOfARowARefusedTransactionInPartsTouchedIsReportedWhenTheSnapshotBringsItsDelete() async throws {
        // Two log rows a push: a's transaction of three goes in parts, and its refusal in the first
        // part comes without the server's version of its rows, which a then takes from a snapshot.
        let d = try await Devices.make(aOptions: SyncOptions(pushRowLimit: 2))
        try await d.a.write { conn in try conn.execute("UPDATE note SET body = 'kept' WHERE id = 'n1'") }
        _ = try await d.syncA.session.pushAll()
        try await d.b.write { conn in try conn.execute("DELETE FROM note WHERE id = 'n1'") }
        _ = try await d.syncB.synchronize()
        // a, which has not pulled the delete, edits n1 again among other rows, in a refused transaction.
        try await d.a.write { conn in
            try conn.execute("UPDATE note SET title = 'secret' WHERE id = 'n1'")
            try conn.execute("INSERT INTO note(id, title) VALUES ('n2', 'secret'), ('n3', 'secret')")
        }
        _ = try await d.syncA.synchronize()

        #expect(try await d.a.rows("note") == [])
        let losses = await d.syncA.takeReportedLosses()
        #expect(losses.map(\.kind) == [.editBeatenByDelete], "b's delete discarded a's acknowledged edit")
        #expect(losses.first?.values == ["body": .text("kept")])
        await d.close()
    }

    @Test func anEditOverwrittenOnTheServerIsJudgedByThePullNotTheRefusal() async throws {
        let d = try await Devices.make()
        // a's edit of the body is logged; b, which has not pulled it, overwrites it later.
        try await d.overwriteConcurrently("body")
        // a's next transaction is refused: the answer carries b's body, which a has not pulled yet.
        try await d.a.write { conn in try conn.execute("UPDATE note SET title = 'secret' WHERE id = 'n1'") }
        _ = try await d.syncA.session.pushAll()
        _ = try await d.syncA.synchronize()

        #expect(try await d.a.rows("note") == [["n1", "plans", "from b", "NULL"]])
        let losses = await d.syncA.takeReportedLosses()
        #expect(losses.map(\.kind) == [.editBeatenByConcurrentEdit], "b overwrote a's edit without having it")
        #expect(losses.first?.values == ["body": .text("from a")])
        await d.close()
    }

    @Test func anEditALaterRefusedEditReplacedIsJudgedAgainstTheServersWinnerOnce() async throws {
        let d = try await Devices.make()
        // a's edit of the title is logged; b, which has not pulled it, overwrites it later.
        try await d.overwriteConcurrently("title")
        // a, which has not pulled b's title, writes the title again in a transaction the server refuses:
        // its first edit is no longer in the row's state, only in what that transaction replaced.
        try await d.a.write { conn in try conn.execute("UPDATE note SET title = 'secret' WHERE id = 'n1'") }
        _ = try await d.syncA.session.pushAll()
        _ = try await d.syncA.synchronize()
        _ = try await d.syncA.synchronize()

        #expect(try await d.a.rows("note") == [["n1", "from b", "years", "NULL"]])
        let losses = await d.syncA.takeReportedLosses()
        #expect(losses.map(\.kind) == [.editBeatenByConcurrentEdit], "b overwrote a's first edit without having it: told once")
        #expect(losses.first?.values == ["title": .text("from a")])
        await d.close()
    }

    @Test func anEditReplacedByARefusedEditIsJudgedAgainstTheWinnerPulledInBetween() async throws {
        let d = try await Devices.make()
        try await d.overwriteConcurrently("title")
        try await Task.sleep(for: .milliseconds(3))
        // a writes the title again, later than b, and pulls b's title before pushing: b's write loses
        // to a's second one there, and never arrives again. The refusal then leaves b's title, does
        // not put a's first edit back to wait for a write that already came, and tells a that b's
        // title overwrote its first edit without having pulled it.
        try await d.a.write { conn in try conn.execute("UPDATE note SET title = 'secret' WHERE id = 'n1'") }
        _ = try await d.syncA.session.pullOnce(wait: .zero)
        #expect(try await d.a.rows("note") == [["n1", "secret", "years", "NULL"]])
        _ = try await d.syncA.session.pushAll()
        _ = try await d.syncA.synchronize()

        #expect(try await d.a.rows("note") == [["n1", "from b", "years", "NULL"]], "a shows the server's title")
        #expect(try await d.b.rows("note") == [["n1", "from b", "years", "NULL"]])
        let losses = await d.syncA.takeReportedLosses()
        #expect(losses.map(\.kind) == [.editBeatenByConcurrentEdit], "b overwrote a's first edit without having it: told once")
        #expect(losses.first?.values == ["title": .text("from a")])
        #expect(losses.first?.row["title"] == .text("secret"), "the row as a showed it when the refusal came")
        await d.close()
    }

    @Test func anEditReplacedByARefusedEditIsNotReportedWhenTheWinnerPulledInBetweenHadIt() async throws {
        let d = try await Devices.make()
        // a's edit of the title is logged, and b pulls it before overwriting it: b's write knew it.
        try await d.a.write { conn in try conn.execute("UPDATE note SET title = 'from a' WHERE id = 'n1'") }
        _ = try await d.syncA.session.pushAll()
        _ = try await d.syncB.synchronize()
        try await Task.sleep(for: .milliseconds(3))
        try await d.b.write { conn in try conn.execute("UPDATE note SET title = 'from b' WHERE id = 'n1'") }
        _ = try await d.syncB.session.pushAll()
        try await Task.sleep(for: .milliseconds(3))
        try await d.a.write { conn in try conn.execute("UPDATE note SET title = 'secret' WHERE id = 'n1'") }
        _ = try await d.syncA.session.pullOnce(wait: .zero)
        _ = try await d.syncA.session.pushAll()
        _ = try await d.syncA.synchronize()

        #expect(try await d.a.rows("note") == [["n1", "from b", "years", "NULL"]], "a shows the server's title")
        #expect(await d.syncA.takeReportedLosses() == [], "b had pulled a's first edit: nothing was lost unseen")
        await d.close()
    }
}

extension RefusalMergeTests {
    @Test func twoEditsOfOneCellRefusedInTurnLeaveNeitherBehind() async throws {
        let d = try await Devices.make(aOptions: SyncOptions(pushRowLimit: 1))
        // a's first title overwrote b's; its second overwrote its first. A push carries one of them at
        // a time, and each is refused in its own answer: the first's undo must leave nothing of it
        // for the second's to put back.
        try await d.a.write { conn in try conn.execute("UPDATE note SET title = 'secret one' WHERE id = 'n1'") }
        try await d.a.write { conn in try conn.execute("UPDATE note SET title = 'secret two' WHERE id = 'n1'") }
        _ = try await d.syncA.synchronize()
        _ = try await d.syncA.synchronize()

        #expect(try await d.a.rows("note") == [["n1", "plans", "years", "NULL"]], "a shows the server's title again")
        #expect(await d.syncA.takeReportedRefusals().map(\.transactionID).count == 2)
        await d.close()
    }
}

extension RefusalMergeTests.Devices {
    /// a sets `column` of n1 to 'from a' and pushes; b, which has not pulled it, sets it to 'from b'
    /// a little later and pushes: b's write beats a's without having had it.
    func overwriteConcurrently(_ column: String) async throws {
        try await a.write { conn in try conn.execute("UPDATE note SET \(column) = 'from a' WHERE id = 'n1'") }
        _ = try await syncA.session.pushAll()
        try await Task.sleep(for: .milliseconds(3))
        try await b.write { conn in try conn.execute("UPDATE note SET \(column) = 'from b' WHERE id = 'n1'") }
        _ = try await syncB.session.pushAll()
    }
}
