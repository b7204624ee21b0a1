import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// After a device pushed many changes, its pulls pass over them on the server: it catches up in as
/// many round trips as others' changes take, not its own.
@Suite struct CatchUpRoundTripTests {
    static let options = SyncOptions(pullLimit: 100)

    /// Inserts `count` notes named `prefix` in transactions of `perTransaction`.
    static func insertNotes(_ database: DatabaseActor, prefix: String, count: Int, perTransaction: Int) async throws {
        for start in stride(from: 0, to: count, by: perTransaction) {
            try await database.write { conn in
                for index in start..<min(count, start + perTransaction) {
                    try conn.execute("INSERT INTO note(id, title) VALUES (?, 'x')", [.text("\(prefix)\(index)")])
                }
            }
        }
    }

    @Test func aDeviceGetsPastItsOwnBigPushInOnePull() async throws {
        let server = try await makeServer()
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let transport = CountingTransport(.inProcess(server))
        let sync = try await BoutiqueSync(database: database, tables: ["note"], server: transport, options: Self.options)
        _ = try await sync.synchronize()
        try await Self.insertNotes(database, prefix: "a", count: 3_000, perTransaction: 50)
        transport.reset()
        let report = try await sync.synchronize()
        #expect(report.pushed == 3_000 && report.applied == 0)
        // Thirty pages of its own changes at 100 a page, passed over in one answer.
        #expect(transport.pulls.load(ordering: .relaxed) == 1)
        transport.reset()
        #expect(try await sync.synchronize().applied == 0)
        #expect(transport.pulls.load(ordering: .relaxed) == 1, "caught up: one pull finds nothing new")
        await database.close()
    }

    @Test func othersChangesBeforeAndAmongTheOwnOnesTakeTheirOwnPagesOnly() async throws {
        let server = try await makeServer()
        let a = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let b = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let transport = CountingTransport(.inProcess(server))
        let syncA = try await BoutiqueSync(database: a, tables: ["note"], server: transport, options: Self.options)
        let syncB = try await BoutiqueSync(database: b, tables: ["note"], server: .inProcess(server), options: Self.options)
        _ = try await syncA.synchronize()
        _ = try await syncB.synchronize()
        // B's 250 changes (three pages), then A's 2,000, then B's 50 more.
        try await Self.insertNotes(b, prefix: "b", count: 250, perTransaction: 50)
        _ = try await syncB.synchronize()
        try await Self.insertNotes(a, prefix: "a", count: 2_000, perTransaction: 100)
        #expect(try await syncA.push() == 2_000)
        try await Self.insertNotes(b, prefix: "c", count: 50, perTransaction: 50)
        _ = try await syncB.synchronize()
        transport.reset()
        let report = try await syncA.synchronize()
        #expect(report.applied == 300)
        #expect(try await a.rows("note").count == 2_300)
        let pulls = transport.pulls.load(ordering: .relaxed)
        // Three pages of B's first changes (the third runs into A's), then A's own passed over up to
        // B's last 50 in one answer: four. Without passing over, twenty more.
        #expect(pulls <= 4, "\(pulls) pulls")
        #expect(transport.emptyPulls.load(ordering: .relaxed) == 0)
        await a.close()
        await b.close()
    }

    /// The same on a server with rules, whose pages follow the spaces the user sees.
    @Test func aDeviceGetsPastItsOwnBigPushOnAServerWithRules() async throws {
        var app = try await SharedReminders()
        let transport = CountingTransport(.inProcess(app.server, user: "ana"))
        try await app.add("ana", through: transport, options: Self.options)
        _ = try await app.sync("ana").synchronize()
        try await app.write("ana", "INSERT INTO remindersList(id, title) VALUES ('L1', 'Big')")
        for start in stride(from: 0, to: 1_500, by: 100) {
            try await app.write("ana", (start..<start + 100).map { "INSERT INTO reminder(id, listID, title) VALUES ('r\($0)', 'L1', 'x');" }.joined())
        }
        transport.reset()
        let report = try await app.sync("ana").synchronize()
        #expect(report.pushed == 1_501 && report.applied == 0)
        #expect(transport.pulls.load(ordering: .relaxed) == 1)
        await app.close()
    }
}
