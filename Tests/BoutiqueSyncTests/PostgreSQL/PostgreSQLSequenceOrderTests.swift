import BoutiqueSync
import BoutiqueSyncServer
import Dispatch
import Foundation
import Testing

/// Sequence order is commit order, across server instances: the trap a bare sequence falls into, set
/// up directly.
///
/// Transaction T1 on instance A appends a change and stays open; T2 on instance B appends one for the
/// same tenant meanwhile. Had T2 taken the next number and committed first, a pull would return T2's
/// change, move its cursor past T1's number, and never see T1's change once it committed.
@Suite struct PostgreSQLSequenceOrderTests {
    static let wall: UInt64 = 1_900_000_000_000

    static func change(_ title: String) -> SyncChange {
        let stamp = SyncStamp(time: HybridTimestamp(milliseconds: wall), replica: "w")
        return SyncChange(table: "note", key: .text(title), kind: .insert, columns: [SyncColumnValue(name: "title", value: .text(title))], stamp: stamp)
    }

    /// What the concurrent transactions have done so far.
    struct Progress {
        var first: Int64?
        var second: Int64?
    }

    @Test func aTenantsTransactionCannotTakeASequenceNumberUntilTheOpenOneCommits() async throws {
        try await PostgreSQLTestDatabase.withFresh { url in
            let storeA = try await PostgreSQLSyncStore.open(url: url)
            let storeB = try await PostgreSQLSyncStore.open(url: url)
            let storeC = try await PostgreSQLSyncStore.open(url: url)
            let reader = SyncServer(store: storeC, maximumClockSkewMilliseconds: 60_000, wallClock: { Self.wall })
            let progress = Lock(Progress())
            let release = DispatchSemaphore(value: 0)
            // A tenant that already has a change: its counter row exists, and only the lock can make
            // the second transaction wait (the first insert of a new tenant's row would, by itself).
            let zero = try await storeA.transaction(tenant: "t") { store in
                try store.appendChange(Self.change("zero"), origin: "a", batch: nil).sequence
            }

            // T1: appends, then holds its transaction open. (The body runs on the store's own
            // connection queue, which may block.)
            let first = Task {
                try await storeA.transaction(tenant: "t") { store in
                    let sequence = try store.appendChange(Self.change("one"), origin: "a", batch: nil).sequence
                    progress.withLock { $0.first = sequence }
                    _ = release.wait(timeout: .now() + 30 * syncTimeoutScale)
                    return sequence
                }
            }
            try await waitUntil("T1 appended its change") { progress.withLock { $0.first != nil } }

            let second = Task {
                try await storeB.transaction(tenant: "t") { store in
                    let sequence = try store.appendChange(Self.change("two"), origin: "b", batch: nil).sequence
                    progress.withLock { $0.second = sequence }
                    return sequence
                }
            }
            try await Task.sleep(for: .milliseconds(700))
            #expect(progress.withLock { $0.second } == nil, "T2 took a sequence number while T1 was still open")
            // A pull from the start while T1 is still open (and T2 had every chance to commit), on a
            // third instance.
            let pull = Task { try await reader.pull(PullRequest(replica: "reader", cursor: 0, limit: 100), tenant: "t") }
            try await Task.sleep(for: .milliseconds(300))

            release.signal()
            let one = try await first.value
            let two = try await second.value
            let pulled = try await pull.value
            #expect(two > one, "T2, which committed after T1, has the later sequence number")

            // The pull may have run before either commit or after; either way it returned every committed
            // change up to its cursor, so nothing it skipped can still commit below it.
            let committed = [zero, one, two].sorted()
            let returned = pulled.changes.map(\.sequence)
            #expect(returned == committed.filter { $0 <= pulled.nextCursor }, "the pull returned \(returned) and moved to \(pulled.nextCursor)")
            let rest = try await reader.pull(PullRequest(replica: "reader", cursor: pulled.nextCursor, limit: 100), tenant: "t")
            #expect(returned + rest.changes.map(\.sequence) == committed, "following the cursor reaches every change, none skipped")

            await storeA.close()
            await storeB.close()
            await storeC.close()
        }
    }

    @Test func concurrentPushesFromManyInstancesCommitInSequenceOrder() async throws {
        try await PostgreSQLTestDatabase.withFresh { url in
            var stores: [PostgreSQLSyncStore] = []
            for _ in 0..<3 { stores.append(try await PostgreSQLSyncStore.open(url: url, connections: 3)) }
            let servers = stores.map { SyncServer(store: $0, maximumClockSkewMilliseconds: 60_000, wallClock: { Self.wall }) }
            let devices = 12
            // Every device pushes its transactions one at a time, each to a different instance, while a
            // reader follows the log with its cursor.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for device in 0..<devices {
                    group.addTask {
                        var digest: UInt64?
                        for id in Int64(1)...4 {
                            let stamp = SyncStamp(time: HybridTimestamp(milliseconds: Self.wall), replica: "s\(device)")
                            let changes = ["a", "b"].map { part in
                                SyncChange(
                                    table: "note", key: .text("d\(device)-\(id)-\(part)"), kind: .insert,
                                    columns: [SyncColumnValue(name: "title", value: .text(part))], stamp: stamp)
                            }
                            let transaction = SyncTransaction(id: id, stamp: stamp, changes: changes)
                            let server = servers[(device + Int(id)) % servers.count]
                            let response = try await server.push(
                                PushRequest(replica: "d\(device)", baseTransactionID: id - 1, baseDigest: digest, schemaVersion: 1,
                                            transactions: [transaction]),
                                tenant: "t")
                            #expect(response.outcome == .accepted && response.appliedThrough == id)
                            digest = response.digest
                        }
                    }
                }
                try await group.waitForAll()
            }
            var cursor: Int64 = 0
            var seen: [Int64] = []
            var batches: [Int64: Set<String>] = [:]
            while true {
                let page = try await servers[1].pull(PullRequest(replica: "reader", cursor: cursor, limit: 7), tenant: "t")
                seen += page.changes.map(\.sequence)
                cursor = page.nextCursor
                if !page.hasMore { break }
            }
            #expect(seen == Array(1...Int64(devices * 4 * 2)), "every number handed out committed, in order, once")
            let logged = try await stores[2].transaction(tenant: "t") { store in try store.changes(after: 0, limit: 1_000) }
            for change in logged { batches[change.batch, default: []].insert(change.origin) }
            #expect(batches.count == devices * 4 && batches.values.allSatisfy { $0.count == 1 }, "each push's changes are one batch")
            for store in stores { await store.close() }
        }
    }
}
