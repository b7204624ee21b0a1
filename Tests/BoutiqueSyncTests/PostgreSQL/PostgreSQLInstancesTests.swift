import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// Two server instances, each with its own store (its own connections), on one PostgreSQL database:
/// what one commits the other serves, and the other's long polls wake for it.
@Suite struct PostgreSQLInstancesTests {
    static let wall: UInt64 = 1_900_000_000_000

    static func server(_ store: PostgreSQLSyncStore) -> SyncServer {
        SyncServer(store: store, maximumClockSkewMilliseconds: 60_000, wallClock: { wall })
    }

    /// A device's push: a transaction of two notes, stamped by the device's writer session.
    static func devicePush(replica: String = "device-1", title: String = "from a device") -> PushRequest {
        let stamp = SyncStamp(time: HybridTimestamp(milliseconds: wall, counter: 3), replica: "session-\(replica)")
        let changes = ["n1", "n2"].map { id in
            SyncChange(
                table: "note", key: .text(id), kind: .insert,
                columns: [SyncColumnValue(name: "title", value: .text(title)), SyncColumnValue(name: "rank", value: .integer(1))],
                stamp: stamp)
        }
        return PushRequest(
            replica: replica, baseTransactionID: 0, baseDigest: nil, schemaVersion: 1,
            transactions: [SyncTransaction(id: 1, stamp: stamp, changes: changes)])
    }

    @Test func aPushToOneInstanceIsPulledFromTheOther() async throws {
        try await PostgreSQLTestDatabase.withFresh { url in
            let storeA = try await PostgreSQLSyncStore.open(url: url)
            let storeB = try await PostgreSQLSyncStore.open(url: url)
            let (a, b) = (Self.server(storeA), Self.server(storeB))
            let pushed = try await a.push(Self.devicePush(), tenant: "acme")
            #expect(pushed.outcome == .accepted && pushed.appliedThrough == 1)

            let pulled = try await b.pull(PullRequest(replica: "device-2", cursor: 0, limit: 100), tenant: "acme")
            #expect(pulled.changes.map(\.change.key) == [.text("n1"), .text("n2")])
            #expect(pulled.nextCursor == 2 && !pulled.hasMore)
            let snapshot = try await b.snapshot(SnapshotRequest(replica: "device-3", after: nil, limit: 10), tenant: "acme")
            #expect(snapshot.rows.map { $0.state.visibleValues["title"] } == [.text("from a device"), .text("from a device")])
            #expect(snapshot.cursor == 2)
            // The retried push lands on the other instance: it changes nothing there either.
            let retried = try await b.push(Self.devicePush(), tenant: "acme")
            #expect(retried.outcome == .accepted && retried.digest == pushed.digest)
            #expect(try await a.pull(PullRequest(replica: "device-2", cursor: 0, limit: 100), tenant: "acme").changes.count == 2)
            await storeA.close()
            await storeB.close()
        }
    }

    @Test func aLongPollOnOneInstanceWakesForAPushToTheOther() async throws {
        try await PostgreSQLTestDatabase.withFresh { url in
            let storeA = try await PostgreSQLSyncStore.open(url: url)
            let storeB = try await PostgreSQLSyncStore.open(url: url)
            let (a, b) = (Self.server(storeA), Self.server(storeB))
            // The poll counts as woken when it returns within this of the push's answer, however busy
            // the machine is; it would wait four times as long, so a poll left to time out cannot pass
            // unless the push itself took three times as long.
            let wokenWithin = syncHangDeadline(seconds: 6)
            let wait = Int(wokenWithin * 4_000)
            let clock = ContinuousClock()
            let poll = Task {
                let response = try await b.pull(
                    PullRequest(replica: "device-2", cursor: 0, limit: 100, waitMilliseconds: wait), tenant: "acme")
                return (response, clock.now)
            }
            // Long enough for the poll to find nothing and wait.
            try await Task.sleep(for: .milliseconds(500))
            _ = try await a.push(Self.devicePush(), tenant: "acme")
            let pushed = clock.now
            let (response, returned) = try await poll.value
            #expect(response.changes.count == 2, "the long poll returned the push's changes")
            // A behaviour check, not a benchmark: woken by the notification, well before its timeout.
            #expect(returned - pushed < .seconds(wokenWithin), "the long poll returned \(returned - pushed) after the push: it was not woken")
            await storeA.close()
            await storeB.close()
        }
    }

    @Test func aLongPollForAnotherTenantKeepsWaiting() async throws {
        try await PostgreSQLTestDatabase.withFresh { url in
            let storeA = try await PostgreSQLSyncStore.open(url: url)
            let storeB = try await PostgreSQLSyncStore.open(url: url)
            let (a, b) = (Self.server(storeA), Self.server(storeB))
            let clock = ContinuousClock()
            let poll = Task {
                let start = clock.now
                let response = try await b.pull(
                    PullRequest(replica: "device-2", cursor: 0, limit: 100, waitMilliseconds: 1_500), tenant: "globex")
                return (response, clock.now - start)
            }
            try await Task.sleep(for: .milliseconds(300))
            _ = try await a.push(Self.devicePush(), tenant: "acme")
            let (response, elapsed) = try await poll.value
            #expect(response.changes.isEmpty)
            #expect(elapsed >= .milliseconds(1_400), "a commit for acme does not end globex's wait")
            await storeA.close()
            await storeB.close()
        }
    }
}
