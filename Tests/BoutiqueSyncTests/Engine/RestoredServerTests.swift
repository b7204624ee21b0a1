import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// A server restored from a backup is behind devices that synced after the backup: they send again
/// what it acknowledged to them and lost, and lose nothing themselves.
@MainActor @Suite struct RestoredServerTests {
    /// The server before its restore, on a store file that ``backup()`` copies.
    struct BackedUpServer {
        let directory: SyncTemporaryDirectory
        let database: DatabaseActor
        let server: SyncServer

        init(in directory: SyncTemporaryDirectory, authorize: SyncAuthorizer? = nil) async throws {
            self.directory = directory
            database = try await DatabaseActor.open(
                url: directory.file("server.db"), migrations: SQLiteSyncStoreSchema.plan,
                options: DatabaseOptions(changeCapture: ChangeCaptureOptions(mode: .off)))
            server = SyncServer(store: SQLiteSyncStore.on(database), authorize: authorize)
        }

        /// A consistent copy of the store as it is now, and the server a restore from it makes (with
        /// `authorize`, the rules as of the backup), when `restored` is called. The copy keeps the
        /// store's history (a copy of the file made by other means than `boutique backup`) unless
        /// `newHistory`, as `boutique backup`'s copies do not.
        func backup(authorize: SyncAuthorizer? = nil, newHistory: Bool = false) async throws -> @Sendable () async throws -> SyncServer {
            let copy = directory.file("copy.db")
            try await database.writeWithoutTransaction { conn in try conn.execute("VACUUM INTO ?", [.text(copy.path)]) }
            if newHistory {
                let copied = try await DatabaseActor.open(
                    url: copy, migrations: SQLiteSyncStoreSchema.plan, options: DatabaseOptions(changeCapture: ChangeCaptureOptions(mode: .off)))
                try await copied.writeWithoutTransaction { conn in try conn.execute(SQLiteSyncStoreSchema.newHistory) }
                await copied.close()
            }
            return { SyncServer(store: try await SQLiteSyncStore.open(url: copy), authorize: authorize) }
        }
    }

    /// The titles a new device gets from `server`, in key order.
    private func titles(on server: SyncServer) async throws -> [String] {
        let reader = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        _ = try await BoutiqueSync(database: reader, tables: ["note"], server: .inProcess(server)).synchronize()
        let titles = try await reader.rows("note").map { $0[1] }
        await reader.close()
        return titles
    }

    private func write(_ sql: String, _ database: DatabaseActor) async throws {
        try await database.write { conn in try conn.execute(sql) }
    }

    /// The restored server never heard of the device (it first synced after the backup): its push
    /// from its acknowledged base is not taken as the server's record of it.
    @Test func aDeviceTheRestoredServerNeverKnewSendsAgainWhatItAcknowledged() async throws {
        let original = try await BackedUpServer(in: try SyncTemporaryDirectory())
        let before = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        try await write("INSERT INTO note(id, title) VALUES ('n0', 'before the backup')", before)
        _ = try await BoutiqueSync(database: before, tables: ["note"], server: .inProcess(original.server)).synchronize()
        let restore = try await original.backup()

        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let transport = SwitchableTransport(.inProcess(original.server))
        let sync = try await BoutiqueSync(database: database, tables: ["note"], server: transport)
        try await write("INSERT INTO note(id, title) VALUES ('n1', 'acknowledged after the backup')", database)
        _ = try await sync.synchronize()
        let restored = try await restore()
        transport.switchTo(.inProcess(restored))
        try await write("INSERT INTO note(id, title) VALUES ('n2', 'after the restore')", database)
        _ = try await sync.synchronize()

        let expected = ["before the backup", "acknowledged after the backup", "after the restore"]
        #expect(try await titles(on: restored) == expected, "the restored server has every acknowledged write")
        #expect(try await database.rows("note").map { $0[1] } == expected)
        #expect(sync.status.pendingCount == 0)
        await database.close()
        await before.close()
    }

    /// The restored server knows the device, at a watermark before what it acknowledged since: the
    /// rows, edits and deletes in between are sent again (the change log pruned them), and an edit the
    /// backup has an older value of wins again.
    @Test func aDeviceAheadOfTheRestoredServersRecordSendsAgainWhatItLacks() async throws {
        let original = try await BackedUpServer(in: try SyncTemporaryDirectory())
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let transport = SwitchableTransport(.inProcess(original.server))
        let sync = try await BoutiqueSync(database: database, tables: ["note"], server: transport)
        try await write("INSERT INTO note(id, title) VALUES ('n0', 'deleted later'), ('n1', 'first')", database)
        _ = try await sync.synchronize()
        let restore = try await original.backup()
        try await write("INSERT INTO note(id, title) VALUES ('n2', 'acknowledged after the backup')", database)
        try await write("UPDATE note SET title = 'edited after the backup' WHERE id = 'n1'", database)
        try await write("DELETE FROM note WHERE id = 'n0'", database)
        _ = try await sync.synchronize()
        let replica = await sync.replicaID

        let restored = try await restore()
        transport.switchTo(.inProcess(restored))
        try await write("INSERT INTO note(id, title) VALUES ('n3', 'after the restore')", database)
        _ = try await sync.synchronize()

        let expected = ["edited after the backup", "acknowledged after the backup", "after the restore"]
        #expect(try await titles(on: restored) == expected, "the restored server has every acknowledged write")
        #expect(try await database.rows("note").map { $0[1] } == expected)
        #expect(await sync.replicaID == replica, "a restored server is not a copied file: the replica keeps its id")
        let log = try await restored.pull(PullRequest(replica: "reader", cursor: 0, limit: 100), tenant: "default").changes
        #expect(Set(log.map { "\($0.change.key)" }).count == 4, "each row's changes are logged; nothing else")
        await database.close()
    }

    /// A session that had synced goes on with the restored server: its pull's cursor is past the end
    /// of the restored log, and the bootstrap that follows does not drop the rows the server lacks of
    /// the device's own (it sends them again first).
    @Test func aCursorPastTheRestoredLogDropsNoneOfTheDevicesAcknowledgedRows() async throws {
        let original = try await BackedUpServer(in: try SyncTemporaryDirectory())
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let transport = SwitchableTransport(.inProcess(original.server))
        let sync = try await BoutiqueSync(database: database, tables: ["note"], server: transport)
        try await write("INSERT INTO note(id, title) VALUES ('n1', 'before the backup')", database)
        _ = try await sync.synchronize()
        let restore = try await original.backup()
        try await write("INSERT INTO note(id, title) VALUES ('n2', 'acknowledged after the backup')", database)
        _ = try await sync.synchronize()

        let restored = try await restore()
        transport.switchTo(.inProcess(restored))
        // Nothing to push: the session goes straight to its pull, from a cursor the restored log has not reached.
        _ = try await sync.synchronize()

        let expected = ["before the backup", "acknowledged after the backup"]
        #expect(try await database.rows("note").map { $0[1] } == expected, "the device lost none of its rows")
        #expect(try await titles(on: restored) == expected)
        await database.close()
    }

    /// Another device that had pulled past the restored log's end gets, from the restored server,
    /// what the first device sends again, and the first device gets the second's.
    @Test func twoDevicesAheadOfTheRestoredServerEndWithEachOthersWrites() async throws {
        let original = try await BackedUpServer(in: try SyncTemporaryDirectory())
        var devices: [(database: DatabaseActor, transport: SwitchableTransport, sync: BoutiqueSync)] = []
        for _ in 0..<2 {
            let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
            let transport = SwitchableTransport(.inProcess(original.server))
            devices.append((database, transport, try await BoutiqueSync(database: database, tables: ["note"], server: transport)))
        }
        try await write("INSERT INTO note(id, title) VALUES ('a1', 'a before'), ('b1', 'b before')", devices[0].database)
        for device in devices { _ = try await device.sync.synchronize() }
        let restore = try await original.backup()
        try await write("INSERT INTO note(id, title) VALUES ('a2', 'a after')", devices[0].database)
        try await write("UPDATE note SET title = 'edited by b' WHERE id = 'a1'", devices[1].database)
        try await write("DELETE FROM note WHERE id = 'b1'", devices[1].database)
        for device in devices + devices { _ = try await device.sync.synchronize() }
        let acknowledged = try await devices[0].database.rows("note")
        #expect(try await devices[1].database.rows("note") == acknowledged)

        let restored = try await restore()
        for device in devices { device.transport.switchTo(.inProcess(restored)) }
        for device in devices + devices { _ = try await device.sync.synchronize() }
        for device in devices { #expect(try await device.database.rows("note") == acknowledged) }
        #expect(try await titles(on: restored) == acknowledged.map { $0[1] })
        for device in devices { await device.database.close() }
    }

    /// Nobody may give a note the title "secret" (the rules apply to a signed-in user).
    private static let noSecrets: SyncAuthorizer = { _, change in
        !change.columns.contains { $0.name == "title" && $0.value == .text("secret") }
    }

    /// The last transaction the server acknowledged after the backup is one it refused: the device
    /// undid it and cannot rebuild its writes, yet the restored server's watermark passes it again
    /// (as an empty transaction), and the device syncs on.
    @Test func aRefusedTransactionAfterTheBackupDoesNotStopTheDevice() async throws {
        let original = try await BackedUpServer(in: try SyncTemporaryDirectory(), authorize: Self.noSecrets)
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let transport = SwitchableTransport(.inProcess(original.server, user: "ann"))
        let sync = try await BoutiqueSync(database: database, tables: ["note"], server: transport)
        try await write("INSERT INTO note(id, title) VALUES ('n0', 'before the backup')", database)
        _ = try await sync.synchronize()
        let restore = try await original.backup(authorize: Self.noSecrets)
        try await write("INSERT INTO note(id, title) VALUES ('n1', 'secret')", database)
        _ = try await sync.synchronize()
        #expect(try await database.rows("note").map { $0[1] } == ["before the backup"], "the refused write was undone")

        let restored = try await restore()
        transport.switchTo(.inProcess(restored, user: "ann"))
        try await write("INSERT INTO note(id, title) VALUES ('n2', 'after the restore')", database)
        _ = try await sync.synchronize()

        let expected = ["before the backup", "after the restore"]
        #expect(try await titles(on: restored) == expected)
        #expect(try await database.rows("note").map { $0[1] } == expected)
        #expect(sync.status.pendingCount == 0)
        await database.close()
    }

    /// The restored server refuses a write the original took (its rules are the backup's): the device
    /// undoes it and reports it, as it does a push's refusal.
    @Test func aWriteTheRestoredServerRefusesIsUndoneAndReported() async throws {
        let original = try await BackedUpServer(in: try SyncTemporaryDirectory())
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let transport = SwitchableTransport(.inProcess(original.server, user: "ann"))
        let sync = try await BoutiqueSync(database: database, tables: ["note"], server: transport)
        try await write("INSERT INTO note(id, title) VALUES ('n0', 'before the backup')", database)
        _ = try await sync.synchronize()
        let restore = try await original.backup(authorize: Self.noSecrets)
        try await write("INSERT INTO note(id, title) VALUES ('n1', 'secret')", database)
        _ = try await sync.synchronize()

        let restored = try await restore()
        transport.switchTo(.inProcess(restored, user: "ann"))
        let refusals = sync.refusals
        _ = try await sync.synchronize()

        let refusal = try #require(await RefusalTests.first(of: refusals), "the refusal was reported")
        #expect(refusal.reason == .forbidden && refusal.table == "note" && refusal.key == .text("n1"))
        #expect(try await database.rows("note").map { $0[1] } == ["before the backup"], "the refused write was undone")
        #expect(try await titles(on: restored) == ["before the backup"])
        await database.close()
    }

    /// The answer to the last batch sent again is lost: the next push finds the server at the file's
    /// acknowledged id with the rebuilt transaction's digest, and takes it as its own (the replica
    /// keeps its id).
    @Test func aLostAnswerToTheLastBatchSentAgainIsRecognised() async throws {
        let original = try await BackedUpServer(in: try SyncTemporaryDirectory())
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let transport = SwitchableTransport(.inProcess(original.server, user: "ann"))
        let sync = try await BoutiqueSync(database: database, tables: ["note"], server: transport)
        try await write("INSERT INTO note(id, title) VALUES ('n0', 'before the backup')", database)
        _ = try await sync.synchronize()
        let restore = try await original.backup()
        try await write("INSERT INTO note(id, title) VALUES ('n1', 'acknowledged after the backup')", database)
        _ = try await sync.synchronize()
        let replica = await sync.replicaID

        let restored = try await restore()
        transport.switchTo(.inProcess(restored, user: "ann"))
        transport.losesNextAnswerWithTransactions.store(true, ordering: .relaxed)
        _ = try? await sync.synchronize()
        let stillToLose = transport.losesNextAnswerWithTransactions.load(ordering: .relaxed)
        #expect(!stillToLose, "the batch sent again reached the server")
        _ = try await sync.synchronize()

        #expect(await sync.replicaID == replica, "the server's record is the file's own: no new replica id")
        let expected = ["before the backup", "acknowledged after the backup"]
        #expect(try await titles(on: restored) == expected)
        #expect(try await database.rows("note").map { $0[1] } == expected)
        await database.close()
    }

    /// A transaction acknowledged after the backup is larger than one push body: it goes again in
    /// parts, as a push sends it, and the restored server applies it whole.
    @Test func aTransactionTooLargeForOnePushGoesAgainInParts() async throws {
        let original = try await BackedUpServer(in: try SyncTemporaryDirectory())
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let transport = SwitchableTransport(.inProcess(original.server))
        var options = SyncOptions()
        options.pushRowLimit = 2
        let sync = try await BoutiqueSync(database: database, tables: ["note"], server: transport, options: options)
        try await write("INSERT INTO note(id, title) VALUES ('n0', 'before the backup')", database)
        _ = try await sync.synchronize()
        let restore = try await original.backup()
        try await write("INSERT INTO note(id, title) VALUES ('n1', 'one'), ('n2', 'two'), ('n3', 'three'), ('n4', 'four'), ('n5', 'five')", database)
        _ = try await sync.synchronize()
        let replica = await sync.replicaID

        let restored = try await restore()
        transport.switchTo(.inProcess(restored))
        transport.maximumChanges.store(2, ordering: .relaxed)
        _ = try await sync.synchronize()

        let expected = ["before the backup", "one", "two", "three", "four", "five"]
        #expect(try await titles(on: restored) == expected, "the restored server has the whole transaction")
        #expect(try await database.rows("note").map { $0[1] } == expected)
        #expect(await sync.replicaID == replica)
        await database.close()
    }

    /// A device that only pulled after the backup (the server's record of it is right) finds its
    /// cursor past the end of the restored log: its bootstrap merges, and keeps the row another device
    /// wrote after the backup until that device sends it again.
    @Test func aDeviceThatOnlyPulledKeepsAnotherDevicesRowsTheRestoredServerLacks() async throws {
        let original = try await BackedUpServer(in: try SyncTemporaryDirectory())
        var devices: [(database: DatabaseActor, transport: SwitchableTransport, sync: BoutiqueSync)] = []
        for _ in 0..<2 {
            let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
            let transport = SwitchableTransport(.inProcess(original.server))
            devices.append((database, transport, try await BoutiqueSync(database: database, tables: ["note"], server: transport)))
        }
        let (writer, reader) = (devices[0], devices[1])
        try await write("INSERT INTO note(id, title) VALUES ('n1', 'before the backup')", writer.database)
        _ = try await writer.sync.synchronize()
        _ = try await reader.sync.synchronize()
        let restore = try await original.backup()
        try await write("INSERT INTO note(id, title) VALUES ('n2', 'written after the backup')", writer.database)
        _ = try await writer.sync.synchronize()
        _ = try await reader.sync.synchronize()
        let expected = ["before the backup", "written after the backup"]
        #expect(try await reader.database.rows("note").map { $0[1] } == expected)

        let restored = try await restore()
        for device in devices { device.transport.switchTo(.inProcess(restored)) }
        _ = try await reader.sync.synchronize()
        #expect(try await reader.database.rows("note").map { $0[1] } == expected, "the reader dropped none of the rows it had pulled")

        _ = try await writer.sync.synchronize()
        _ = try await reader.sync.synchronize()
        #expect(try await titles(on: restored) == expected)
        for device in devices { #expect(try await device.database.rows("note").map { $0[1] } == expected) }
        for device in devices { await device.database.close() }
    }
}
