import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// A transaction the server refuses is undone on the device that made it, reported, and never blocks
/// what comes after it, in either direction.
@MainActor @Suite struct RefusalTests {
    /// Nobody may give a note the title "secret".
    static func strictServer() async throws -> SyncServer {
        SyncServer(store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()), authorize: { _, change in
            !change.columns.contains { $0.name == "title" && $0.value == .text("secret") }
        })
    }

    struct Devices {
        let server: SyncServer
        let ann: DatabaseActor
        let bob: DatabaseActor
        let annSync: BoutiqueSync
        let bobSync: BoutiqueSync
        let annTransport: FlakyTransport
    }

    static func devices() async throws -> Devices {
        let server = try await strictServer()
        let ann = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let bob = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let annTransport = FlakyTransport(.inProcess(server, user: "ann"))
        let annSync = try await BoutiqueSync(database: ann, tables: ["note", "tag"], server: annTransport)
        let bobSync = try await BoutiqueSync(database: bob, tables: ["note", "tag"], server: .inProcess(server, user: "bob"))
        return Devices(server: server, ann: ann, bob: bob, annSync: annSync, bobSync: bobSync, annTransport: annTransport)
    }

    /// The first element of `sequence`, or `nil` when none comes within ten seconds.
    static func first<Element: Sendable>(of sequence: AsyncStream<Element>) async -> Element? {
        await withTaskGroup(of: Element?.self) { group in
            group.addTask {
                var iterator = sequence.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(10))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    @Test func aRefusedEditIsPutBackReportedAndTheDeviceGoesOnBothWays() async throws {
        let d = try await Self.devices()
        let refusals = d.annSync.refusals
        try await d.ann.write { conn in try conn.execute("INSERT INTO note(id, title, body) VALUES ('n1', 'plans', 'a')") }
        _ = try await d.annSync.synchronize()

        try await d.ann.write { conn in try conn.execute("UPDATE note SET title = 'secret' WHERE id = 'n1'") }
        try await d.ann.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n2', 'shopping')") }
        try await d.bob.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n3', 'from bob')") }
        _ = try await d.bobSync.synchronize()
        let report = try await d.annSync.synchronize()

        #expect(report.pushed == 1, "the allowed transaction after the refused one went through")
        #expect(report.applied == 1, "and the pull ran: Bob's note arrived")
        #expect(try await d.ann.rows("note") == [["n1", "plans", "a", "NULL"], ["n2", "shopping", "NULL", "NULL"], ["n3", "from bob", "NULL", "NULL"]])
        let refusal = try #require(await Self.first(of: refusals), "the refusal was reported")
        #expect(refusal.reason == .forbidden && refusal.table == "note" && refusal.key == .text("n1"))
        #expect(refusal.transactionID != nil)
        #expect(d.annSync.status.lastRefusal == refusal)
        #expect(d.annSync.status.pendingCount == 0, "a refused transaction is handled, not pending")

        // Nothing is jammed: later writes go both ways.
        try await d.ann.write { conn in try conn.execute("UPDATE note SET body = 'b' WHERE id = 'n1'") }
        _ = try await d.annSync.synchronize()
        _ = try await d.bobSync.synchronize()
        #expect(try await d.bob.rows("note") == [["n1", "plans", "b", "NULL"], ["n2", "shopping", "NULL", "NULL"], ["n3", "from bob", "NULL", "NULL"]])
        await d.ann.close()
        await d.bob.close()
    }

    @Test func aRefusedInsertDisappearsAndLaterWorkOnOtherColumnsStays() async throws {
        let d = try await Self.devices()
        try await d.ann.write { conn in
            try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'secret')")
            try conn.execute("INSERT INTO tag(id, noteID, label) VALUES ('t1', 'n1', 'x')")
        }
        try await d.ann.write { conn in try conn.execute("INSERT INTO note(id, title, body) VALUES ('n2', 'ok', 'one')") }
        try await d.ann.write { conn in try conn.execute("UPDATE note SET title = 'secret' WHERE id = 'n2'") }
        try await d.ann.write { conn in try conn.execute("UPDATE note SET body = 'two' WHERE id = 'n2'") }
        _ = try await d.annSync.synchronize()
        _ = try await d.bobSync.synchronize()
        // The refused insert is gone with its tag; n2 keeps its allowed title and the later body.
        #expect(try await d.ann.rows("note") == [["n2", "ok", "two", "NULL"]])
        #expect(try await d.ann.rows("tag") == [])
        #expect(try await d.bob.rows("note") == [["n2", "ok", "two", "NULL"]])
        #expect(try await d.bob.rows("tag") == [])
        await d.ann.close()
        await d.bob.close()
    }

    @Test func aRefusalWhoseAnswerWasLostIsStillUndone() async throws {
        let d = try await Self.devices()
        try await d.ann.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'plans')") }
        _ = try await d.annSync.synchronize()
        try await d.ann.write { conn in try conn.execute("UPDATE note SET title = 'secret' WHERE id = 'n1'") }
        d.annTransport.lostAnswers.store(1, ordering: .relaxed)   // the server records the refusal; its answer never arrives
        await #expect(throws: BoutiqueError.self) { _ = try await d.annSync.synchronize() }
        #expect(try await d.ann.rows("note") == [["n1", "secret", "NULL", "NULL"]], "nothing heard yet")
        _ = try await d.annSync.synchronize()
        #expect(try await d.ann.rows("note") == [["n1", "plans", "NULL", "NULL"]])
        #expect(d.annSync.status.lastRefusal?.reason == .forbidden)
        #expect(d.annSync.status.pendingCount == 0)
        await d.ann.close()
        await d.bob.close()
    }
}
