import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// A server's history (``SyncServerID/history``): a store copied by `boutique backup` and served again
/// answers with another one, and a device whose cursor was taken in the original's log takes the
/// restored server's state again instead of pulling on from positions that now hold other changes.
@MainActor @Suite struct ServerHistoryTests {
    typealias BackedUpServer = RestoredServerTests.BackedUpServer

    private func write(_ sql: String, _ database: DatabaseActor) async throws {
        try await database.write { conn in try conn.execute(sql) }
    }

    /// A device and its session, reaching the server through a transport the test can switch.
    struct Device {
        let database: DatabaseActor
        let transport: SwitchableTransport
        let sync: BoutiqueSync

        init(_ server: SyncServer) async throws {
            database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
            transport = SwitchableTransport(.inProcess(server))
            sync = try await BoutiqueSync(database: database, tables: ["note"], server: transport)
        }

        func titles() async throws -> [String] { try await database.rows("note").map { $0[1] } }
    }

    /// The titles a new device gets from `server`, in key order.
    private func titles(on server: SyncServer) async throws -> [String] {
        let reader = try await Device(server)
        _ = try await reader.sync.synchronize()
        let titles = try await reader.titles()
        await reader.database.close()
        return titles
    }

    /// The reader only pulled: the restored server's record of it is right, and by the time it syncs
    /// the restored log has grown past its cursor, so neither a push nor a pull past the log's end
    /// tells it of the restore. The history does: it ends with exactly the server's rows.
    @Test func aDeviceThatOnlyPulledGetsWhatTheRestoredLogHoldsBelowItsCursor() async throws {
        let original = try await BackedUpServer(in: try SyncTemporaryDirectory())
        let writer = try await Device(original.server)
        let reader = try await Device(original.server)
        try await write("INSERT INTO note(id, title) VALUES ('a0', 'before the backup')", writer.database)
        _ = try await writer.sync.synchronize()
        _ = try await reader.sync.synchronize()
        let restore = try await original.backup(newHistory: true)
        for index in 1...10 {
            try await write("INSERT INTO note(id, title) VALUES ('a\(index)', 'after the backup \(index)')", writer.database)
        }
        _ = try await writer.sync.synchronize()
        _ = try await reader.sync.synchronize()
        #expect(try await reader.titles().count == 11)

        let restored = try await restore()
        for device in [writer, reader] { device.transport.switchTo(.inProcess(restored)) }
        // Another device's writes fill the restored log's positions the reader had pulled in the
        // original's, and more; the writer then sends again what the restored server lost.
        let grower = try await Device(restored)
        for index in 1...30 {
            try await write("INSERT INTO note(id, title) VALUES ('g\(index)', 'grown \(index)')", grower.database)
        }
        _ = try await grower.sync.synchronize()
        _ = try await writer.sync.synchronize()
        _ = try await reader.sync.synchronize()

        let server = try await titles(on: restored)
        #expect(server.count == 41)
        #expect(try await reader.titles() == server, "the reader holds exactly the restored server's rows")
        #expect(try await writer.titles() == server)
        for device in [writer, reader, grower] {
            #expect(device.sync.status.pendingCount == 0)
            await device.database.close()
        }
    }

    /// The same history, as long as the server only grows: a device's sync with the store reopened
    /// (a restart) pulls on from its cursor, and a copy made another way than `boutique backup` keeps
    /// the original's history (what a pull past the log's end tells then still holds).
    @Test func aStoreKeepsItsHistoryAcrossRestartsAndGetsANewOneInABackup() async throws {
        let directory = try SyncTemporaryDirectory()
        let store = try await SQLiteSyncStore.open(url: directory.file("server.db"))
        let history = try #require(try await store.history())
        let identity = try await store.identity()
        await store.close()
        let reopened = try await SQLiteSyncStore.open(url: directory.file("server.db"))
        #expect(try await reopened.history() == history)
        let database = try await DatabaseActor.open(url: directory.file("server.db"), migrations: SQLiteSyncStoreSchema.plan)
        try await database.writeWithoutTransaction { conn in try conn.execute(SQLiteSyncStoreSchema.newHistory) }
        await database.close()
        await reopened.close()
        let copied = try await SQLiteSyncStore.open(url: directory.file("server.db"))
        let newHistory = try #require(try await copied.history())
        #expect(newHistory != history, "a new history")
        #expect(try await copied.identity() == identity, "the same server")

        // Every reply carries it.
        let server = SyncServer(store: copied)
        let device = try await Device(server)
        try await write("INSERT INTO note(id, title) VALUES ('n1', 'one')", device.database)
        _ = try await device.sync.synchronize()
        let pulled = try await device.transport.pull(PullRequest(replica: "r", cursor: 0, limit: 10, waitMilliseconds: 0))
        #expect(pulled.server?.history == newHistory)
        await device.database.close()
        await copied.close()
    }

    /// A device's progress taken before it knew histories (or from a server that predates them) is
    /// not thrown away when a server that tells its history first answers: the history is recorded,
    /// and the device pulls on from its cursor. A server that names none changes nothing.
    @Test func aFirstHistoryIsRecordedWithoutStartingOver() async throws {
        let original = try await BackedUpServer(in: try SyncTemporaryDirectory())
        let writer = try await Device(original.server)
        let reader = try await Device(original.server)
        reader.transport.hidesHistory.store(true, ordering: .relaxed)
        try await write("INSERT INTO note(id, title) VALUES ('n1', 'one')", writer.database)
        _ = try await writer.sync.synchronize()
        _ = try await reader.sync.synchronize()
        let recorded = { @Sendable (database: DatabaseActor) async throws -> [DatabaseValue] in
            try await database.read { conn in
                try conn.fetchAll("SELECT history, cursor, bootstrapped FROM boutique_sync_server").first?.values ?? []
            }
        }
        let before = try await recorded(reader.database)
        #expect(before.first == .null, "no history from a server that names none")

        reader.transport.hidesHistory.store(false, ordering: .relaxed)
        try await write("INSERT INTO note(id, title) VALUES ('n2', 'two')", writer.database)
        _ = try await writer.sync.synchronize()
        let report = try await reader.sync.synchronize()
        #expect(report.applied == 1, "pulled on from its cursor: only the new row")
        let after = try await recorded(reader.database)
        let history = try #require(try await SQLiteSyncStore.on(original.database).history())
        #expect(after.first == .text(history), "the history recorded")
        #expect(after.last == .integer(1), "still bootstrapped")
        #expect(try await reader.titles() == ["one", "two"])
        for device in [writer, reader] { await device.database.close() }
    }

    /// The history travels in the server's identity; a reply from a server that predates it decodes
    /// with none, and a device that predates it reads the rest of the identity as before.
    @Test func theHistoryIsPartOfTheServersIdentityOnTheWire() throws {
        let identity = SyncServerID(store: "s1", tenant: "acme", history: "h1")
        let encoded = try JSONEncoder().encode(identity)
        #expect(String(decoding: encoded, as: UTF8.self).contains(#""history":"h1""#))
        #expect(try JSONDecoder().decode(SyncServerID.self, from: encoded) == identity)
        let older = try JSONDecoder().decode(SyncServerID.self, from: Data(#"{"store":"s1","tenant":"acme"}"#.utf8))
        #expect(older.history == nil && older.key == identity.key, "the same server, its history unknown")

        /// The identity as a device of the version before reads it.
        struct IdentityBeforeHistories: Decodable { var store: String; var tenant: String }
        let read = try JSONDecoder().decode(IdentityBeforeHistories.self, from: encoded)
        #expect(read.store == "s1" && read.tenant == "acme")
    }
}
