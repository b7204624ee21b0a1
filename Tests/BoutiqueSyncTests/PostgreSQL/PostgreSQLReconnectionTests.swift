import BoutiqueSync
@testable import BoutiqueSyncServer
import Foundation
import Testing

/// Connections PostgreSQL drops (a server restart, a failover, an administrator) are replaced: the
/// store's connections at the next transaction, the commit listener on its own. And a store's
/// connections end with it.
@Suite struct PostgreSQLReconnectionTests {
    static let wall: UInt64 = 1_900_000_000_000

    /// Ends the sessions on the test's database whose last statement is like `query` (all but the
    /// caller's by default), as a restart would, and waits until they are gone. (`CASE`, because the
    /// conditions of a `WHERE` may be evaluated in any order: the caller's own session must never be
    /// ended.)
    static func dropSessions(on url: String, matching query: String = "%") async throws -> [Int64] {
        let ended = try await PostgreSQLTestDatabase.integers(
            """
            SELECT pid::int8 FROM pg_stat_activity WHERE CASE
                WHEN datname = current_database() AND pid <> pg_backend_pid() AND query LIKE $1 THEN pg_terminate_backend(pid)
                ELSE false END
            """,
            [.text(query)], on: url)
        try await waitUntil("the ended sessions are gone") {
            try await PostgreSQLTestDatabase.integers(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = ANY($1::text::int8[])", [.text("{\(ended.map(String.init).joined(separator: ","))}")],
                on: url) == [0]
        }
        return ended
    }

    static func listeningSessions(on url: String) async throws -> [Int64] {
        try await PostgreSQLTestDatabase.integers(
            "SELECT pid::int8 FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN boutique_sync'", on: url)
    }

    @Test func transactionsAfterTheServerDroppedEveryConnectionSucceed() async throws {
        try await PostgreSQLTestDatabase.withFresh { url in
            let store = try await PostgreSQLSyncStore.open(url: url, connections: 2)
            let server = SyncServer(store: store, maximumClockSkewMilliseconds: 60_000, wallClock: { Self.wall })
            _ = try await server.pull(PullRequest(replica: "r", cursor: 0, limit: 10), tenant: "t")
            #expect(try await Self.dropSessions(on: url).isEmpty == false)
            // Each idle connection finds out at its next BEGIN, and is replaced before anything was done.
            for _ in 0..<4 {
                let answer = try await server.pull(PullRequest(replica: "r", cursor: 0, limit: 10), tenant: "t")
                #expect(answer.outcome == .changes)
            }
            await store.close()
        }
    }

    @Test func theCommitListenerReconnectsAndLongPollsStillWake() async throws {
        try await PostgreSQLTestDatabase.withFresh { url in
            let storeA = try await PostgreSQLSyncStore.open(url: url)
            let storeB = try await PostgreSQLSyncStore.open(url: url)
            let a = SyncServer(store: storeA, maximumClockSkewMilliseconds: 60_000, wallClock: { Self.wall })
            let b = SyncServer(store: storeB, maximumClockSkewMilliseconds: 60_000, wallClock: { Self.wall })
            // B listens from its first long poll on.
            _ = try await b.pull(PullRequest(replica: "reader", cursor: 0, limit: 10, waitMilliseconds: 1), tenant: "acme")
            let before = try await Self.listeningSessions(on: url)
            #expect(before.count == 1)
            _ = try await Self.dropSessions(on: url, matching: "LISTEN%")
            try await waitUntil("the listener reconnected") {
                let now = try await Self.listeningSessions(on: url)
                return now.count == 1 && now != before
            }

            let clock = ContinuousClock()
            let poll = Task {
                let start = clock.now
                let response = try await b.pull(
                    PullRequest(replica: "reader", cursor: 0, limit: 100, waitMilliseconds: 5_000), tenant: "acme")
                return (response, clock.now - start)
            }
            try await Task.sleep(for: .milliseconds(300))
            let stamp = SyncStamp(time: HybridTimestamp(milliseconds: Self.wall), replica: "session")
            let change = SyncChange(table: "note", key: .text("n"), kind: .insert, columns: [], stamp: stamp)
            _ = try await a.push(
                PushRequest(replica: "device", baseTransactionID: 0, baseDigest: nil, schemaVersion: 1,
                            transactions: [SyncTransaction(id: 1, stamp: stamp, changes: [change])]),
                tenant: "acme")
            let (response, elapsed) = try await poll.value
            #expect(response.changes.count == 1)
            #expect(elapsed < .milliseconds(3_500), "the long poll took \(elapsed): the new listener did not wake it")
            await storeA.close()
            await storeB.close()
        }
    }

    @Test func aStoreLetGoWithoutClosingEndsItsSessions() async throws {
        try await PostgreSQLTestDatabase.withFresh { url in
            try await Self.openAndForget(url)
            try await waitUntil("the forgotten store's sessions ended") {
                try await PostgreSQLTestDatabase.integers(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()", on: url) == [0]
            }
        }
    }

    /// Opens a store, listens, runs a transaction, and lets the store go.
    private static func openAndForget(_ url: String) async throws {
        let store = try await PostgreSQLSyncStore.open(url: url)
        try await store.observeCommits { _ in }
        _ = try await store.transaction(tenant: "t") { store in try store.latestSequence() }
        #expect(try await listeningSessions(on: url).count == 1)
    }
}
