import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// A device clock that is wrong cannot win: stamps are taken at the server-corrected time, and a
/// stamp too far ahead is taken again instead of being refused for ever.
@MainActor @Suite struct ClockTests {
    @Test func aDeviceClockFarAheadIsStampedAgainAtTheServersTime() async throws {
        let wall: UInt64 = 1_900_000_000_000
        let server = SyncServer(
            store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()), maximumClockSkewMilliseconds: 60_000,
            wallClock: { wall })
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let sync = try await BoutiqueSync(
            database: database, tables: ["note"], server: .inProcess(server),
            options: SyncOptions(wallClock: { wall + 3_600_000 }))   // an hour ahead
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'from the future')") }
        let stamped = try await database.read { conn in try conn.fetchValue("SELECT stamp FROM boutique_sync_txn") }
        #expect(stamped.flatMap { if case .integer(let raw) = $0 { HybridTimestamp(rawValue: UInt64(raw)).milliseconds } else { nil } }
            == wall + 3_600_000, "before any exchange, the device's own clock is all there is")

        let report = try await sync.synchronize()
        #expect(report.pushed == 1, "refused once for its clock, the transaction was stamped again and accepted")
        #expect(sync.status.pendingCount == 0)
        let log = try await server.pull(PullRequest(replica: "reader", cursor: 0, limit: 10), tenant: "default")
        #expect(log.changes.map(\.change.stamp.time.milliseconds) == [wall], "stamped at the server's time, not an hour ahead")

        // From now on the device stamps at the corrected time directly.
        try await database.write { conn in try conn.execute("UPDATE note SET title = 'now' WHERE id = 'n1'") }
        let later = try await database.read { conn in
            try conn.fetchValue("SELECT stamp FROM boutique_sync_txn ORDER BY change_txn_id DESC LIMIT 1")
        }
        #expect(later.flatMap { if case .integer(let raw) = $0 { HybridTimestamp(rawValue: UInt64(raw)).milliseconds } else { nil } }
            == wall)
        await database.close()
    }

    @Test func aFastClockStopsWinningAfterOneExchange() async throws {
        let time = VirtualTime()
        let server = SyncServer(
            store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()), maximumClockSkewMilliseconds: 600_000,
            wallClock: { time.milliseconds })
        let fast = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let right = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        // Five minutes fast: inside the server's ten-minute limit, so nothing refuses its stamps.
        let fastSync = try await BoutiqueSync(
            database: fast, tables: ["note"], server: .inProcess(server),
            options: SyncOptions(wallClock: { time.milliseconds + 300_000 }))
        let rightSync = try await BoutiqueSync(
            database: right, tables: ["note"], server: .inProcess(server), options: SyncOptions(wallClock: { time.milliseconds }))
        try await right.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'first')") }
        _ = try await rightSync.synchronize()
        _ = try await fastSync.synchronize()   // the exchange: the fast device learns the server's time

        time.advance(by: 1_000)
        try await fast.write { conn in try conn.execute("UPDATE note SET title = 'earlier edit' WHERE id = 'n1'") }
        time.advance(by: 1_000)
        try await right.write { conn in try conn.execute("UPDATE note SET title = 'later edit' WHERE id = 'n1'") }
        _ = try await fastSync.synchronize()
        _ = try await rightSync.synchronize()
        _ = try await fastSync.synchronize()
        #expect(try await fast.rows("note") == [["n1", "later edit", "NULL", "NULL"]], "the genuinely later edit wins")
        #expect(try await right.rows("note") == [["n1", "later edit", "NULL", "NULL"]])
        await fast.close()
        await right.close()
    }

    @Test func aSlowAnswerDoesNotMakeARightClockLookWrong() async throws {
        let time = VirtualTime()
        let server = SyncServer(
            store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()), maximumClockSkewMilliseconds: 600_000,
            wallClock: { time.milliseconds })
        let slow = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let other = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        // Both clocks are right; every answer to the first device takes three seconds to come back (a
        // loaded device), so its reply's time reads three seconds behind when it arrives.
        let slowSync = try await BoutiqueSync(
            database: slow, tables: ["note"], server: SlowAnswers(.inProcess(server), time: time, trip: 3_000),
            options: SyncOptions(wallClock: { time.milliseconds }))
        let otherSync = try await BoutiqueSync(
            database: other, tables: ["note"], server: .inProcess(server), options: SyncOptions(wallClock: { time.milliseconds }))
        try await other.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'first')") }
        _ = try await otherSync.synchronize()
        _ = try await slowSync.synchronize()

        try await other.write { conn in try conn.execute("UPDATE note SET title = 'earlier edit' WHERE id = 'n1'") }
        time.advance(by: 1_000)
        try await slow.write { conn in try conn.execute("UPDATE note SET title = 'later edit' WHERE id = 'n1'") }
        _ = try await otherSync.synchronize()
        _ = try await slowSync.synchronize()
        _ = try await otherSync.synchronize()
        #expect(try await other.rows("note") == [["n1", "later edit", "NULL", "NULL"]], "a slow trip is no clock error")
        #expect(try await slow.rows("note") == [["n1", "later edit", "NULL", "NULL"]])
        await slow.close()
        await other.close()
    }

    @Test func serversCanRequireANewerAppVersion() async throws {
        let server = SyncServer(store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()), minimumSchemaVersion: 2)
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let sync = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(server))
        let refusal = await #expect(throws: SyncRefusal.self) { _ = try await sync.synchronize() }
        #expect(refusal?.reason == .appTooOld)
        #expect(sync.status.activity == .refused(try #require(refusal)))
        await database.close()
        let upgraded = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.upgraded)
        _ = try await BoutiqueSync(database: upgraded, tables: ["note"], server: .inProcess(server)).synchronize()
        await upgraded.close()
    }
}

/// A transport whose answers come back `trip` milliseconds of virtual time after the server gave them.
private struct SlowAnswers: SyncTransport {
    let base: InProcessTransport
    let time: VirtualTime
    let trip: UInt64

    init(_ base: InProcessTransport, time: VirtualTime, trip: UInt64) {
        self.base = base
        self.time = time
        self.trip = trip
    }

    var serverIdentifier: String { base.serverIdentifier }

    private func slowly<T>(_ call: () async throws -> T) async throws -> T {
        let answer = try await call()
        time.advance(by: trip)
        return answer
    }

    func push(_ request: PushRequest) async throws -> PushResponse { try await slowly { try await base.push(request) } }
    func pull(_ request: PullRequest) async throws -> PullResponse { try await slowly { try await base.pull(request) } }
    func snapshot(_ request: SnapshotRequest) async throws -> SnapshotResponse { try await slowly { try await base.snapshot(request) } }
}
