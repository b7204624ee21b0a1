import BoutiqueSQLite
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
    ///
    /// - Parameter server: where to connect to end them (the test's database itself by default).
    /// - Parameter application: only the sessions of this `application_name` (the listener's), when given.
    static func dropSessions(
        on url: String, matching query: String = "%", application: String? = nil, from server: String? = nil
    ) async throws -> [Int64] {
        guard let database = URLComponents(string: url)?.path.dropFirst() else { return [] }
        let ended = try await PostgreSQLTestDatabase.integers(
            """
            SELECT pid::int8 FROM pg_stat_activity WHERE CASE
                WHEN datname = $1 AND pid <> pg_backend_pid() AND query LIKE $2 AND application_name LIKE $3
                THEN pg_terminate_backend(pid)
                ELSE false END
            """,
            [.text(String(database)), .text(query), .text(application ?? "%")], on: server ?? url)
        try await waitUntil("the ended sessions are gone") {
            try await PostgreSQLTestDatabase.integers(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = ANY($1::text::int8[])", [.text("{\(ended.map(String.init).joined(separator: ","))}")],
                on: server ?? url) == [0]
        }
        return ended
    }

    /// The commit listeners' sessions, by their application name: the statement a listener ran last
    /// is `LISTEN`, or the `SELECT 1` it sends after 30 s of silence (which a sanitized run reaches).
    static func listeningSessions(on url: String) async throws -> [Int64] {
        try await PostgreSQLTestDatabase.integers(
            "SELECT pid::int8 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'BoutiqueSyncServer listener'",
            on: url)
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
            _ = try await Self.dropSessions(on: url, application: "BoutiqueSyncServer listener")
            try await waitUntil("the listener reconnected") {
                let now = try await Self.listeningSessions(on: url)
                return now.count == 1 && now != before
            }

            let clock = ContinuousClock()
            // Twice as long as the poll may take to count as woken, so that a wake-up is told from the
            // wait running out however busy the machine is.
            let wokenWithin = syncHangDeadline(seconds: 5)
            let wait = Int(wokenWithin * 2_000)
            let poll = Task {
                let start = clock.now
                let response = try await b.pull(
                    PullRequest(replica: "reader", cursor: 0, limit: 100, waitMilliseconds: wait), tenant: "acme")
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
            #expect(elapsed < .seconds(wokenWithin), "the long poll took \(elapsed): the new listener did not wake it")
            await storeA.close()
            await storeB.close()
        }
    }

    @Test func aCommitAnnouncedWhileTheListenerWasAwayStillWakesItsTenantsLongPolls() async throws {
        try await longPollIsWokenAfterTheListenerComesBack(heardOfTheTenantBefore: true)
    }

    /// The tenant's first commit is the one announced while B's listener was away: B knows the tenant
    /// only from serving the long poll itself.
    @Test func aTenantNoNotificationNamedIsWokenAfterAReconnectionToo() async throws {
        try await longPollIsWokenAfterTheListenerComesBack(heardOfTheTenantBefore: false)
    }

    /// Cuts B's listener off, commits on A while nobody on B listens, lets the listener back, and checks
    /// that B's long poll on the tenant was woken rather than running out its wait.
    private func longPollIsWokenAfterTheListenerComesBack(heardOfTheTenantBefore: Bool) async throws {
        try await PostgreSQLTestDatabase.withFresh { url in
            guard let server = PostgreSQLTestDatabase.serverURL(test: #function),
                let database = URLComponents(string: url)?.path.dropFirst()
            else { return }
            let storeA = try await PostgreSQLSyncStore.open(url: url)
            let storeB = try await PostgreSQLSyncStore.open(url: url)
            let a = SyncServer(store: storeA, maximumClockSkewMilliseconds: 60_000, wallClock: { Self.wall })
            let b = SyncServer(store: storeB, maximumClockSkewMilliseconds: 60_000, wallClock: { Self.wall })
            // B listens first: a commit announced before its LISTEN is not heard.
            let heardByB = Lock<Set<String>>([])
            try await storeB.observeCommits { tenant in heardByB.withLock { _ = $0.insert(tenant) } }
            let cursor: Int64 = heardOfTheTenantBefore ? 1 : 0
            if heardOfTheTenantBefore {
                // B's listener hears of acme once. (The pull cannot tell: it reads the change from the
                // table either way.)
                let first = Task { try await b.pull(PullRequest(replica: "reader", cursor: 0, limit: 10, waitMilliseconds: 5_000), tenant: "acme") }
                try await Task.sleep(for: .milliseconds(300))
                _ = try await a.push(Self.push(id: 1, key: "one"), tenant: "acme")
                #expect(try await first.value.changes.count == 1)
                try await waitUntil("B's listener heard of acme") { heardByB.withLock { $0.contains("acme") } }
            }

            // The listener is cut off, and cannot come back while the database refuses new sessions
            // (the stores' other connections stay).
            try await PostgreSQLTestDatabase.execute("ALTER DATABASE \(database) ALLOW_CONNECTIONS false", on: server)
            #expect(try await Self.dropSessions(on: url, application: "BoutiqueSyncServer listener", from: server).count == 1)
            let clock = ContinuousClock()
            // Twice as long as the poll may take to count as woken, so that a wake-up is told from the
            // wait running out however busy the machine is.
            let wokenWithin = syncHangDeadline(seconds: 5)
            let wait = Int(wokenWithin * 2_000)
            let poll = Task {
                let start = clock.now
                let response = try await b.pull(
                    PullRequest(replica: "reader", cursor: cursor, limit: 10, waitMilliseconds: wait), tenant: "acme")
                return (response, clock.now - start)
            }
            try await Task.sleep(for: .milliseconds(300))
            // Announced while nobody on B listens.
            _ = try await a.push(Self.push(id: cursor + 1, key: "two", base: cursor), tenant: "acme")
            try await Task.sleep(for: .milliseconds(300))
            try await PostgreSQLTestDatabase.execute("ALTER DATABASE \(database) ALLOW_CONNECTIONS true", on: server)

            let (response, elapsed) = try await poll.value
            #expect(response.changes.map(\.change.key) == [.text("two")])
            #expect(elapsed < .seconds(wokenWithin), "the long poll took \(elapsed): the reconnected listener did not wake acme")
            await storeA.close()
            await storeB.close()
        }
    }

    /// A device's push of one insert as transaction `id`.
    static func push(id: Int64, key: String, base: Int64 = 0) -> PushRequest {
        let stamp = SyncStamp(time: HybridTimestamp(milliseconds: wall, counter: UInt16(id)), replica: "session")
        let change = SyncChange(table: "note", key: .text(key), kind: .insert, columns: [], stamp: stamp)
        let previous = base == 0 ? nil : push(id: base, key: "one").transactions.first?.digest
        return PushRequest(
            replica: "device", baseTransactionID: base, baseDigest: previous, schemaVersion: 1,
            transactions: [SyncTransaction(id: id, stamp: stamp, changes: [change])])
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
