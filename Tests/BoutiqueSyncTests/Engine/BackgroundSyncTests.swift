import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Observation
import Synchronization
import Testing

/// `start()` keeps two devices in step on its own, and `status` tells observers what it does.
@MainActor @Suite struct BackgroundSyncTests {
    /// Waits until `condition` holds, giving up after a generous deadline (a hung sync fails the test
    /// instead of hanging it; nothing here measures time).
    func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
        for _ in 0..<500 {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    @Test func startedDevicesPushAfterCommitsAndPullContinuously() async throws {
        let server = try await makeServer()
        let a = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let b = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let options = SyncOptions(pullWait: .milliseconds(200), retryInterval: .milliseconds(50))
        let syncA = try await BoutiqueSync(database: a, tables: ["note"], server: .inProcess(server), options: options)
        let syncB = try await BoutiqueSync(database: b, tables: ["note"], server: .inProcess(server), options: options)

        let changed = Atomic<Int>(0)
        withObservationTracking { _ = syncB.status } onChange: { changed.add(1, ordering: .relaxed) }

        syncA.start()
        syncB.start()
        syncA.start()   // a second start does nothing
        try await a.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'live')") }
        #expect(try await eventually { try await b.rows("note") == [["n1", "live", "NULL", "NULL"]] })
        try await b.write { conn in try conn.execute("UPDATE note SET body = 'back' WHERE id = 'n1'") }
        #expect(try await eventually { try await a.rows("note") == [["n1", "live", "back", "NULL"]] })
        #expect(try await eventually { syncA.status.pendingCount == 0 && syncA.status.lastSync != nil })
        await syncA.stop()
        await syncB.stop()
        #expect(changed.load(ordering: .relaxed) >= 1, "observers of status heard of the change")
        #expect(!syncA.status.isOffline)
        await a.close()
        await b.close()
    }

    @Test func aStartedDeviceThatIsOfflineSaysSoAndCatchesUpLater() async throws {
        let server = try await makeServer()
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let transport = FlakyTransport(.inProcess(server))
        transport.offline.store(true, ordering: .relaxed)
        let sync = try await BoutiqueSync(
            database: database, tables: ["note"], server: transport,
            options: SyncOptions(pullWait: .milliseconds(100), retryInterval: .milliseconds(20)))
        sync.start()
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'waiting')") }
        #expect(try await eventually { sync.status.isOffline && sync.status.pendingCount == 1 })
        transport.offline.store(false, ordering: .relaxed)
        #expect(try await eventually { sync.status.pendingCount == 0 && !sync.status.isOffline })
        await sync.stop()
        await database.close()
    }
}
