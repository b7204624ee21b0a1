import BoutiqueSQLite
import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Synchronization
import Testing

#if BOUTIQUE_SYNC_HTTP
import BoutiqueSyncHTTP
#endif

/// Housekeeping removes what every device seen within the retention period has pulled past, on each
/// store: the device away longer bootstraps again, the others carry on.
@Suite struct SyncHousekeepingTests {
    /// A server clock the test moves forward.
    final class Wall: Sendable {
        private let milliseconds: Atomic<UInt64>
        init() { milliseconds = Atomic(UInt64(Date().timeIntervalSince1970 * 1_000)) }
        var now: UInt64 { milliseconds.load(ordering: .relaxed) }
        func advance(hours: UInt64) { milliseconds.add(hours * 3_600_000, ordering: .relaxed) }
    }

    static func device(_ server: SyncServer) async throws -> (DatabaseActor, BoutiqueSync) {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        return (database, try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(server)))
    }

    /// A pull as the device makes it: its replica id is bound to its secret, and the server answers it
    /// only with that.
    static func pull(_ database: DatabaseActor, replica: String, cursor: Int64) async throws -> PullRequest {
        var request = PullRequest(replica: replica, cursor: cursor, limit: 10)
        request.replicaSecret = try await database.read { conn in
            try conn.fetchAll("SELECT secret FROM boutique_sync_replica_secret WHERE replica = ?", [.text(replica)]).first.flatMap { row in
                if case .text(let secret) = row.values[0] { secret } else { nil }
            }
        }
        return request
    }

    @Test(arguments: StoreKind.allCases)
    func aRoundRemovesWhatRecentDevicesPulledAndSendsADeviceAwayLongerBackToABootstrap(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let wall = Wall()
            let server = SyncServer(
                store: store, maximumClockSkewMilliseconds: SyncProtocol.defaultMaximumClockSkewMilliseconds, wallClock: { wall.now })
            let housekeeping = SyncHousekeeping(server: server, retention: .seconds(3_600))
            let (active, activeSync) = try await Self.device(server)
            let (away, awaySync) = try await Self.device(server)
            try await active.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'kept'), ('n2', 'deleted')") }
            _ = try await activeSync.synchronize()
            _ = try await awaySync.synchronize()
            #expect(try await away.rows("note").map { $0[0] } == ["n1", "n2"])

            // Two hours later, one hour past the retention: only the active device has been seen since.
            wall.advance(hours: 2)
            try await active.write { conn in try conn.execute("DELETE FROM note WHERE id = 'n2'") }
            _ = try await activeSync.synchronize()
            // A device counts as past what it has applied, which its next pull says.
            _ = try await activeSync.synchronize()
            let awayID = await awaySync.replicaID
            let activeID = await activeSync.replicaID
            let before = try await store.transaction(tenant: "default") { store in
                (try store.changes(after: 0, limit: 100).count, try store.rowState(table: "note", key: .text("n2")),
                 try store.replica(awayID)?.cursor ?? -1, try store.replica(activeID)?.cursor ?? -1, try store.latestSequence())
            }
            #expect(before.0 == 3 && before.1?.isVisible == false, "the log holds the inserts and the delete, the row its tombstone")
            #expect(before.2 < before.4, "the away device is behind")

            let events = await housekeeping.collectNow()
            guard case .collected("default", 0, let report)? = events.first, events.count == 1 else {
                Issue.record("one collection for the tenant, not \(events)")
                return
            }
            #expect(report.horizon == before.4 && report.tombstonesRemoved == 1)
            let after = try await store.transaction(tenant: "default") { store in
                (try store.changes(after: 0, limit: 100).count, try store.rowState(table: "note", key: .text("n2")),
                 try store.rowState(table: "note", key: .text("n1"))?.isVisible, try store.logHorizon())
            }
            #expect(after.0 == 0 && after.1 == nil && after.2 == true && after.3 == before.4, "log entries and the tombstone are gone, n1 stays")

            // The away device's cursor is behind the horizon; the active device's is not.
            let awayPull = try await server.pull(try await Self.pull(away, replica: awayID, cursor: before.2), tenant: "default")
            #expect(awayPull.outcome == .resetRequired)
            // (The active device has applied everything: it synced twice since the last change.)
            let activePull = try await server.pull(try await Self.pull(active, replica: activeID, cursor: before.4), tenant: "default")
            #expect(activePull.outcome == .changes && activePull.changes.isEmpty)
            #if BOUTIQUE_SYNC_HTTP
            let signer = try SyncTokenSigner(secret: HTTPTestServer.secret)
            let http = try SyncHTTPServer(server: server, signer: signer, port: 0)
            let token = try signer.token(tenant: "default", user: "ana", expiresAt: Date().addingTimeInterval(600))
            let answer = try await RawHTTP.send(
                http.url, "v1/pull", token: token, body: RawHTTP.json(try await Self.pull(away, replica: awayID, cursor: before.2)))
            await http.shutdown(gracePeriod: .seconds(2))
            #expect(answer.status == 410, "over HTTP the device is told to bootstrap again with a 410")
            #endif

            // The away device bootstraps again and ends up without the row deleted while it was away;
            // the active device syncs on as before.
            _ = try await awaySync.synchronize()
            #expect(try await away.rows("note").map { $0[0] } == ["n1"])
            try await active.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n3', 'after')") }
            for sync in [activeSync, awaySync, activeSync, awaySync] { _ = try await sync.synchronize() }
            #expect(try await active.rows("note").map { $0[0] } == ["n1", "n3"])
            #expect(try await away.rows("note").map { $0[0] } == ["n1", "n3"])
            #expect(await housekeeping.collectNow().isEmpty == false, "the next round prunes through the new change")
            await active.close()
            await away.close()
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theStoreListsItsTenantsInByteOrder(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            #expect(try await store.tenants().isEmpty)
            for tenant in ["zeta", "Alpha", "beta", "été"] {
                _ = try await store.transaction(tenant: tenant) { store in try store.reserveSequence() }
            }
            #expect(try await store.tenants() == ["Alpha", "beta", "zeta", "été"])
        }
    }

    @Test func theScheduleRunsARoundSoonAfterStartAndStopsWhenStopped() async throws {
        let store = try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL())
        let server = SyncServer(store: store)
        let stamp = SyncStamp(time: HybridTimestamp(milliseconds: UInt64(Date().timeIntervalSince1970 * 1_000)), replica: "r")
        let change = SyncChange(table: "note", key: .text("k"), kind: .delete, columns: [], stamp: stamp)
        _ = try await server.push(
            PushRequest(replica: "r", baseTransactionID: 0, baseDigest: nil, schemaVersion: 1,
                        transactions: [SyncTransaction(id: 1, stamp: stamp, changes: [change])]),
            tenant: "acme")
        // The device has pulled past its delete: nothing holds the log entry or the tombstone back.
        _ = try await server.pull(PullRequest(replica: "r", cursor: 0, limit: 10), tenant: "acme")
        let events = Lock<[SyncHousekeeping.Event]>([])
        let housekeeping = SyncHousekeeping(
            server: server, retention: .seconds(60), interval: .seconds(3_600), firstRoundAfter: .milliseconds(50)
        ) { event in events.withLock { $0.append(event) } }
        await housekeeping.start()
        let deadline = ContinuousClock.now + .seconds(syncHangDeadline(seconds: 10))
        while events.withLock({ $0.isEmpty }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        await housekeeping.stop()
        let logged = events.withLock { $0 }.filter { if case .collected = $0 { true } else { false } }
        #expect(logged.count == 1, "\(logged)")
        #expect(logged.first?.description == "tenant 'acme': log entries 1…1 and 1 tombstone(s) removed")
        await store.close()
    }

    @Test func aStoreThatCannotListItsTenantsIsReportedNotFatal() async throws {
        struct Opaque: SyncStore {
            let base: SQLiteSyncStore
            func transaction<T: Sendable>(tenant: String, _ body: @Sendable (any SyncStoreTransaction) throws -> T) async throws -> T {
                try await base.transaction(tenant: tenant, body)
            }
        }
        let base = try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL())
        let events = await SyncHousekeeping(server: SyncServer(store: Opaque(base: base))).collectNow()
        guard case .failed(nil, let reason)? = events.first else {
            Issue.record("a failure to list the tenants, not \(events)")
            return
        }
        #expect(reason.contains("cannot list its tenants"))
        await base.close()
    }
}
