import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Synchronization

/// Tenants isolated in time: one tenant's one-change push and pull, timed while another tenant runs
/// four concurrent 15 MB pushes and four devices each pulling its 150 MB log in pages.
///
///     swift run -c release boutique-benchmarks --isolation
///
/// The busy tenant's log is seeded first with 100 transactions of 1.5 MB (150 MB). Then the load
/// starts: four pushers, each sending three transactions of fifteen 1 MB values, one after another;
/// four pullers, each pulling the whole log from the start in pages (4 MiB each, the server's default
/// budget). While the load runs, the calm tenant pushes one small change and pulls it back, 10 ms
/// apart (at least 20 times); its push and pull latencies are printed (p50, p99, max). Taken on the SQLite store, and
/// on the PostgreSQL store too when `BOUTIQUE_BENCH_POSTGRES_URL` names a server. The target: p99 at
/// most 250 ms.
enum IsolationWorkloads {
    static let seedTransactions = 100
    static let minimumRounds = 20
    static let pushesPerPusher = 3

    static func run() async throws {
        var kinds = [SpacesWorkloads.StoreKind.sqlite]
        if let url = ProcessInfo.processInfo.environment["BOUTIQUE_BENCH_POSTGRES_URL"], !url.isEmpty {
            kinds.append(.postgres(url))
        }
        for kind in kinds {
            print("\n=== tenant isolation, \(kind.name) store ===")
            try await measure(kind)
        }
    }

    /// A pushing replica's progress.
    struct Pusher {
        let replica: String
        var base: Int64 = 0
        var digest: UInt64?
        var next: Int64 = 1

        /// Pushes one transaction of `values` values of `bytes` bytes each, each in a row of its own.
        mutating func push(_ server: SyncServer, tenant: String, values: Int, bytes: Int) async throws {
            let stamp = SyncStamp(time: HybridTimestamp(milliseconds: UInt64(Date().timeIntervalSince1970 * 1000)), replica: replica + "-w")
            let payload = String(repeating: "x", count: bytes)
            let changes = (0..<values).map { index in
                SyncChange(
                    table: "note", key: .text("\(replica)-\(next)-\(index)"), kind: .insert,
                    columns: [SyncColumnValue(name: "body", value: .text(payload))], stamp: stamp)
            }
            var request = PushRequest(
                replica: replica, baseTransactionID: base, baseDigest: digest, schemaVersion: 1,
                transactions: [SyncTransaction(id: next, stamp: stamp, changes: changes)])
            request.replicaSecret = replica + "-secret"
            let response = try await server.push(request, tenant: tenant)
            guard response.outcome == .accepted else {
                throw BoutiqueError.syncRefused(reason: "a benchmark push was refused: \(response.reason ?? "\(response.outcome)")")
            }
            (base, digest) = (response.appliedThrough, response.digest)
            next += 1
        }
    }

    static func measure(_ kind: SpacesWorkloads.StoreKind) async throws {
        let opened = try await SpacesWorkloads.open(kind)
        let server = SyncServer(store: opened.store)
        var seeder = Pusher(replica: "seeder")
        for _ in 0..<seedTransactions { try await seeder.push(server, tenant: "busy", values: 10, bytes: 150_000) }
        print("  seeded the busy tenant with \(seedTransactions) transactions of 1.5 MB")

        let counters = LoadCounters()
        var load: [Task<Void, any Error>] = []
        for index in 0..<4 {
            load.append(Task {
                var pusher = Pusher(replica: "pusher-\(index)")
                for _ in 0..<pushesPerPusher {
                    try await pusher.push(server, tenant: "busy", values: 15, bytes: 1_000_000)
                    counters.pushedBytes.add(15_000_000, ordering: .relaxed)
                }
                counters.finished.add(1, ordering: .relaxed)
            })
            load.append(Task {
                do {
                    var cursor: Int64 = 0
                    var more = true
                    while more {
                        let page = try await server.pull(PullRequest(replica: "puller-\(index)", cursor: cursor, limit: 10_000), tenant: "busy")
                        counters.pulledBytes.add(page.changes.reduce(0) { $0 + ($1.change.columns.first.map { column in
                            if case .text(let text) = column.value { text.utf8.count } else { 0 }
                        } ?? 0) }, ordering: .relaxed)
                        (cursor, more) = (page.nextCursor, page.hasMore)
                    }
                }
                counters.finished.add(1, ordering: .relaxed)
            })
        }
        // The load gets going before the calm tenant starts.
        try await Task.sleep(for: .milliseconds(500))
        var calm = Pusher(replica: "calm")
        var pushes: [Double] = []
        var pulls: [Double] = []
        var cursor: Int64 = 0
        let clock = ContinuousClock()
        let started = clock.now
        while counters.finished.load(ordering: .relaxed) < 8 || pushes.count < minimumRounds {
            let pushStart = clock.now
            try await calm.push(server, tenant: "calm", values: 1, bytes: 20)
            pushes.append(seconds(clock.now - pushStart))
            let pullStart = clock.now
            let page = try await server.pull(PullRequest(replica: "calm-reader", cursor: cursor, limit: 100), tenant: "calm")
            pulls.append(seconds(clock.now - pullStart))
            cursor = page.nextCursor
            try await Task.sleep(for: .milliseconds(10))
        }
        let elapsed = seconds(clock.now - started)
        for task in load { try await task.value }
        BenchmarkStatistics.printLatencies("calm tenant: one-change push", pushes)
        BenchmarkStatistics.printLatencies("calm tenant: pull", pulls)
        print(String(
            format: "  meanwhile the busy tenant pushed %.0f MB and pulled %.0f MB in %.1f s",
            Double(counters.pushedBytes.load(ordering: .relaxed)) / 1e6, Double(counters.pulledBytes.load(ordering: .relaxed)) / 1e6, elapsed))
        await opened.close()
    }

    /// What the load tasks share: how many are done, and how much they moved.
    final class LoadCounters: Sendable {
        /// Load tasks done (four pushers, four pullers).
        let finished = Atomic<Int>(0)
        let pushedBytes = Atomic<Int>(0)
        let pulledBytes = Atomic<Int>(0)
    }

    static func seconds(_ duration: Duration) -> Double {
        let (whole, attoseconds) = duration.components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
