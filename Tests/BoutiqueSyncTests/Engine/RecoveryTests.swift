import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// Lost answers, restored files and copied files: nothing is applied twice and nothing is skipped.
@MainActor @Suite struct RecoveryTests {
    @Test func aLostAcknowledgementIsRecognisedOnTheRetry() async throws {
        let server = try await makeServer()
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let transport = FlakyTransport(.inProcess(server))
        let sync = try await BoutiqueSync(database: database, tables: ["note"], server: transport)
        _ = try await sync.synchronize()
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'once')") }
        transport.lostAnswers.store(1, ordering: .relaxed)
        await #expect(throws: BoutiqueError.self) { _ = try await sync.synchronize() }
        #expect(sync.status.isOffline)
        #expect(sync.status.pendingCount == 1)
        _ = try await sync.synchronize()
        let log = try await server.pull(PullRequest(replica: "reader", cursor: 0, limit: 100), tenant: "default").changes
        #expect(log.count == 1, "the push the device retried was applied once")
        #expect(sync.status.pendingCount == 0)
        await database.close()
    }

    @Test func aFileRestoredFromABackupTakesANewReplicaIdAndLosesNothing() async throws {
        let directory = try SyncTemporaryDirectory()
        let server = try await makeServer()
        let url = directory.file("device.db")
        var database = try await DatabaseActor.open(url: url, migrations: SyncTestSchema.plan)
        var sync = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(server))
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'before the backup')") }
        _ = try await sync.synchronize()
        let backup = directory.file("backup.db")
        try await database.writeWithoutTransaction { conn in try conn.execute("VACUUM INTO ?", [.text(backup.path)]) }
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n2', 'after the backup')") }
        _ = try await sync.synchronize()
        let original = await sync.replicaID
        await database.close()

        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        try FileManager.default.copyItem(at: backup, to: url)
        database = try await DatabaseActor.open(url: url, migrations: SyncTestSchema.plan)
        sync = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(server))
        // The restored file writes a transaction under an id the server already saw from this replica.
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n3', 'after the restore')") }
        _ = try await sync.synchronize()
        #expect(await sync.replicaID != original)
        // The restored file gave the old id up, proving it with the secret it kept for it: the server
        // stops waiting for it.
        let old = try await server.store.transaction(tenant: "default") { store in try store.replica(original) }
        #expect(old?.isRetired == true)

        let other = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        _ = try await BoutiqueSync(database: other, tables: ["note"], server: .inProcess(server)).synchronize()
        let titles = try await other.rows("note").map { $0[1] }
        #expect(titles == ["before the backup", "after the backup", "after the restore"], "the restored file's write was not skipped")
        #expect(try await database.rows("note").map { $0[1] } == titles, "the restored file got back what it had lost")
        await database.close()
        await other.close()
    }

    /// A file restored from a backup made before a push the server refused part of, whose original
    /// heard of the refusal and pushed on past it (a transaction a push: its second push's base is
    /// past the refusal), hears of the refusal too: whether its push reaches the server's watermark
    /// (the refusal is told again) or stops short of it (`pushRowLimit` 1: the mismatch answer tells
    /// it), the refused insert does not stay on the copy, and it is reported.
    @Test(arguments: [1, 2_000])
    func aFileRestoredFromBeforeARefusedPushUndoesTheRefusal(pushRowLimit: Int) async throws {
        try await restoreFromBeforeARefusedPush(copyOptions: SyncOptions(pushRowLimit: pushRowLimit))
    }

    /// The same copy with its clock an hour ahead and a write of its own: its push is refused for the
    /// write's stamp, with the watermark and the refusals it passed, and the copy undoes them before it
    /// takes the watermark.
    @Test func aFileRestoredFromBeforeARefusedPushWithItsClockAheadUndoesTheRefusal() async throws {
        try await restoreFromBeforeARefusedPush(
            copyOptions: SyncOptions(wallClock: { UInt64(Date().timeIntervalSince1970 * 1_000) + 3_600_000 }),
            copyWrites: ["n4", "later"])
    }

    /// A device's file copied while it held a refused insert (n2) unpushed is restored after the
    /// original pushed past it, then syncs with `copyOptions`, after writing the row `copyWrites` if any.
    private func restoreFromBeforeARefusedPush(copyOptions: SyncOptions, copyWrites: [String]? = nil) async throws {
        let directory = try SyncTemporaryDirectory()
        let server = try await RefusalTests.strictServer()
        let url = directory.file("device.db")
        var database = try await DatabaseActor.open(url: url, migrations: SyncTestSchema.plan)
        var sync = try await BoutiqueSync(
            database: database, tables: ["note"], server: .inProcess(server, user: "ann"), options: SyncOptions(pushRowLimit: 1))
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'plans')") }
        _ = try await sync.synchronize()
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n2', 'secret')") }
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n3', 'shopping')") }
        let backup = directory.file("backup.db")
        try await database.writeWithoutTransaction { conn in try conn.execute("VACUUM INTO ?", [.text(backup.path)]) }
        _ = try await sync.synchronize()
        let kept = [["n1", "plans", "NULL", "NULL"], ["n3", "shopping", "NULL", "NULL"]]
        #expect(try await database.rows("note") == kept, "the original undid the refused insert")
        await database.close()

        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        try FileManager.default.copyItem(at: backup, to: url)
        database = try await DatabaseActor.open(url: url, migrations: SyncTestSchema.plan)
        #expect(try await database.rows("note").count == 3, "the copy holds the refused insert, not pushed yet")
        sync = try await BoutiqueSync(
            database: database, tables: ["note"], server: .inProcess(server, user: "ann"), options: copyOptions)
        let refusals = sync.refusals
        var expected = kept
        if let copyWrites {
            try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES (?, ?)", copyWrites.map { .text($0) }) }
            expected.append(copyWrites + ["NULL", "NULL"])
        }
        _ = try await sync.synchronize()
        #expect(try await database.rows("note") == expected, "the refused insert did not stay on the copy")
        let refusal = try #require(await RefusalTests.first(of: refusals), "the copy reported the refusal")
        #expect(refusal.reason == .forbidden && refusal.table == "note" && refusal.key == .text("n2"))
        #expect(sync.status.pendingCount == 0)
        await database.close()
    }

    @Test func aReplicaTheServerForgotBootstrapsAgain() async throws {
        let server = try await makeServer()
        let a = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let b = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let syncA = try await BoutiqueSync(database: a, tables: ["note"], server: .inProcess(server))
        let syncB = try await BoutiqueSync(database: b, tables: ["note"], server: .inProcess(server))
        try await a.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'kept'), ('n2', 'deleted')") }
        _ = try await syncA.synchronize()
        _ = try await syncB.synchronize()
        try await a.write { conn in try conn.execute("DELETE FROM note WHERE id = 'n2'") }
        _ = try await syncA.synchronize()
        // b counts as gone: the server drops the log and the tombstone b never pulled.
        let report = try await server.collectGarbage(tenant: "default", inactiveAfterMilliseconds: 0)
        #expect(report.horizon > 0)
        _ = try await syncB.synchronize()
        #expect(try await b.rows("note").map { $0[0] } == ["n1"], "the row deleted while b was away is gone after the new bootstrap")
        await a.close()
        await b.close()
    }
}
