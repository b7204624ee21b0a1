import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// A device clock far ahead cannot win: the server refuses its stamps and says what its time is.
@Suite struct ClockTests {
    @Test func aDeviceClockFarAheadIsRefusedAndChangesNothing() async throws {
        let wall: UInt64 = 1_900_000_000_000
        let server = SyncServer(
            store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()), maximumClockSkewMilliseconds: 60_000,
            wallClock: { wall })
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let sync = try await BoutiqueSync(
            database: database, tables: ["note"], server: .inProcess(server),
            options: SyncOptions(wallClock: { wall + 3_600_000 }))   // an hour ahead
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'from the future')") }
        do {
            _ = try await sync.synchronize()
            Issue.record("a stamp an hour ahead was accepted")
        } catch let error as BoutiqueError {
            guard case .syncRefused(let reason) = error else { throw error }
            #expect(reason.contains("clock"))
        }
        #expect(sync.status.isOffline)
        #expect(sync.status.pendingCount == 1, "the write waits; nothing was applied")
        let log = try await server.pull(PullRequest(replica: "reader", cursor: 0, limit: 10), tenant: "default")
        #expect(log.changes.isEmpty)
        await database.close()
    }

    @Test func serversCanRequireANewerAppVersion() async throws {
        let server = SyncServer(store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()), minimumSchemaVersion: 2)
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let sync = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(server))
        await #expect(throws: BoutiqueError.self) { _ = try await sync.synchronize() }
        await database.close()
        let upgraded = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.upgraded)
        _ = try await BoutiqueSync(database: upgraded, tables: ["note"], server: .inProcess(server)).synchronize()
        await upgraded.close()
    }
}
