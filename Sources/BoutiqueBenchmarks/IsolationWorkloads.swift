import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Synchronization

/// Tenants isolated in time: one tenant's one-change push and pull, timed while another tenant runs
/// four concurrent pushers of 15 MB transactions and four devices each pulling its 150 MB log in pages.
///
///     swift run -c release boutique-benchmarks --isolation
///
/// The busy tenant's log is seeded first with 100 transactions of 1.5 MB (150 MB). Then the load
/// starts: four pushers, each sending three 15 MB transactions, one after another; four pullers,
/// each pulling the whole log from the start in pages (4 MiB each, the server's default budget).
/// The busy tenant's transactions take three shapes, each on a store of its own:
///
/// - fifteen 1 MB values sent whole, one request per transaction (a server whose body limit takes it);
/// - the same sent in parts, as a device's session sends a transaction past 4 MiB of values
///   (``/BoutiqueSync/PushPart``: parts of at most 4 MiB or 2,000 rows, the last of which the server
///   applies the whole transaction at);
/// - 15,000 rows of 1 KB (an import) in parts of 2,000 rows.
///
/// While the load runs, the calm tenant pushes one small change and pulls it back, 10 ms apart (at
/// least 20 times); its push latencies while the busy tenant pushes and after (its pulls going on
/// alone), and its pull latencies, are printed (p50, p99, max), with the busy tenant's
/// pushed throughput, how long its transactions' last requests took, and the process's CPU time
/// beside the wall time (the machine may be shared). Taken on the one-file SQLite store, on the
/// directory store with a file per tenant (``SQLiteTenantFilesStore``), and on the PostgreSQL store too
/// when `BOUTIQUE_BENCH_POSTGRES_URL` names a server; `BOUTIQUE_BENCH_ISOLATION_STORES=sqlite,files,postgres`
/// measures some of them only. The target: the calm push's p99 at most 250 ms.
enum IsolationWorkloads {
    static let seedTransactions = 100
    static let minimumRounds = 20
    static let pushesPerPusher = 3
    /// What a device's session puts in one part at most (its push byte and row limits).
    static let partBytes = 4 << 20
    static let partRows = 2_000

    /// How the busy tenant's 15 MB transactions are made and sent.
    enum HeavyShape: CaseIterable {
        case wholeLargeRows
        case partsOfLargeRows
        case partsOfSmallRows

        var name: String {
            switch self {
            case .wholeLargeRows: "15 × 1 MB values, whole"
            case .partsOfLargeRows: "15 × 1 MB values, in parts of ≤ 4 MiB"
            case .partsOfSmallRows: "15,000 × 1 KB rows, in parts of 2,000 rows"
            }
        }

        /// Values per transaction and bytes per value.
        var rows: (values: Int, bytes: Int) {
            switch self {
            case .wholeLargeRows, .partsOfLargeRows: (15, 1_000_000)
            case .partsOfSmallRows: (15_000, 1_000)
            }
        }

        var inParts: Bool { self != .wholeLargeRows }
    }

    static func run() async throws {
        var kinds: [(key: String, kind: SpacesWorkloads.StoreKind)] = [("sqlite", .sqlite), ("files", .sqliteTenantFiles)]
        if let url = ProcessInfo.processInfo.environment["BOUTIQUE_BENCH_POSTGRES_URL"], !url.isEmpty {
            kinds.append(("postgres", .postgres(url)))
        }
        if let stores = ProcessInfo.processInfo.environment["BOUTIQUE_BENCH_ISOLATION_STORES"] {
            let keys = Set(stores.split(separator: ",").map(String.init))
            kinds.removeAll { !keys.contains($0.key) }
        }
        // BOUTIQUE_BENCH_ISOLATION_SHAPES=0,2 runs some shapes only (by their place in the list).
        let chosen = ProcessInfo.processInfo.environment["BOUTIQUE_BENCH_ISOLATION_SHAPES"].map {
            Set($0.split(separator: ",").compactMap { Int($0) })
        }
        for (_, kind) in kinds {
            for (index, shape) in HeavyShape.allCases.enumerated() where chosen?.contains(index) ?? true {
                print("\n=== tenant isolation, \(kind.name) store: the busy tenant pushes \(shape.name) ===")
                try await measure(kind, shape: shape)
            }
        }
    }

    /// A pushing replica's progress.
    struct Pusher {
        let replica: String
        var base: Int64 = 0
        var digest: UInt64?
        var next: Int64 = 1

        /// Pushes one transaction of `values` values of `bytes` bytes each, each in a row of its own:
        /// whole, or in parts as a device's session cuts it. Returns how long its last request took.
        @discardableResult
        mutating func push(_ server: SyncServer, tenant: String, values: Int, bytes: Int, inParts: Bool = false) async throws -> Double {
            let stamp = SyncStamp(time: HybridTimestamp(milliseconds: UInt64(Date().timeIntervalSince1970 * 1000)), replica: replica + "-w")
            let payload = String(repeating: "x", count: bytes)
            let changes = (0..<values).map { index in
                SyncChange(
                    table: "note", key: .text("\(replica)-\(next)-\(index)"), kind: .insert,
                    columns: [SyncColumnValue(name: "body", value: .text(payload))], stamp: stamp)
            }
            let transaction = SyncTransaction(id: next, stamp: stamp, changes: changes)
            let parts = inParts ? Self.parts(of: changes.count, bytesPerChange: bytes) : [0..<changes.count]
            var last = 0.0
            for (index, range) in parts.enumerated() {
                var request = PushRequest(
                    replica: replica, baseTransactionID: base, baseDigest: digest, schemaVersion: 1,
                    transactions: [SyncTransaction(id: next, stamp: stamp, changes: Array(changes[range]))])
                request.replicaSecret = replica + "-secret"
                if inParts {
                    request.part = PushPart(
                        from: Int64(range.lowerBound), through: Int64(range.upperBound), isLast: index == parts.count - 1,
                        transactionDigest: transaction.digest)
                }
                let start = ContinuousClock.now
                let response = try await server.push(request, tenant: tenant)
                last = IsolationWorkloads.seconds(ContinuousClock.now - start)
                guard response.outcome == .accepted, response.refusals == nil else {
                    throw BoutiqueError.syncRefused(reason: "a benchmark push was refused: \(response.reason ?? "\(response.outcome)")")
                }
                if inParts, index < parts.count - 1, response.receivedThrough != Int64(range.upperBound) {
                    throw BoutiqueError.syncRefused(reason: "a part was not kept: the server holds through \(response.receivedThrough ?? -1)")
                }
                (base, digest) = (response.appliedThrough, response.digest)
            }
            next += 1
            return last
        }

        /// The parts a session cuts a transaction into: consecutive changes up to ``partBytes`` of
        /// values or ``partRows`` rows, at least one change each.
        static func parts(of count: Int, bytesPerChange: Int) -> [Range<Int>] {
            let perPart = max(1, min(IsolationWorkloads.partRows, IsolationWorkloads.partBytes / max(bytesPerChange, 1)))
            return stride(from: 0, to: count, by: perPart).map { $0..<min($0 + perPart, count) }
        }
    }

    static func measure(_ kind: SpacesWorkloads.StoreKind, shape: HeavyShape) async throws {
        let opened = try await SpacesWorkloads.open(kind)
        let environment = ProcessInfo.processInfo.environment
        if environment["BOUTIQUE_BENCH_ISOLATION_WRITER_CHECKPOINTS"] == "1", let sqlite = opened.store as? SQLiteSyncStore {
            // SQLite's own checkpoint in the writer's commits, as the store had it: for a comparison.
            try await sqlite.database.writeWithoutTransaction { conn in try conn.connection.execute("PRAGMA wal_autocheckpoint = 1000") }
            print("  (the writer checkpoints in its commits, SQLite's default)")
        }
        // BOUTIQUE_BENCH_ISOLATION_UNTIL_PUSHED=1: the calm tenant stops when the busy tenant's pushes end,
        // and the pulls are cancelled then (a shorter run, for comparisons).
        let untilPushed = environment["BOUTIQUE_BENCH_ISOLATION_UNTIL_PUSHED"] == "1"
        let server = SyncServer(store: opened.store)
        var seeder = Pusher(replica: "seeder")
        for _ in 0..<seedTransactions { try await seeder.push(server, tenant: "busy", values: 10, bytes: 150_000) }
        print("  seeded the busy tenant with \(seedTransactions) transactions of 1.5 MB")

        let counters = LoadCounters()
        var load: [Task<Void, any Error>] = []
        let cpuBefore = ProcessUsage.cpuSeconds(of: getpid())
        let clock = ContinuousClock()
        let loadStarted = clock.now
        for index in 0..<4 {
            load.append(Task {
                var pusher = Pusher(replica: "pusher-\(index)")
                for _ in 0..<pushesPerPusher {
                    let (values, bytes) = shape.rows
                    let last = try await pusher.push(server, tenant: "busy", values: values, bytes: bytes, inParts: shape.inParts)
                    counters.lastRequests.withLock { $0.append(last) }
                    counters.pushedBytes.add(values * bytes, ordering: .relaxed)
                }
                counters.pushersFinished.add(1, ordering: .relaxed)
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
        // The calm pushes while the busy tenant pushes, and after (its pulls go on alone).
        var pushes: [Double] = []
        var pushesAfter: [Double] = []
        var pulls: [Double] = []
        var cursor: Int64 = 0
        var pushersSeconds: Double?
        let started = clock.now
        while counters.finished.load(ordering: .relaxed) < 8 || pushes.count + pushesAfter.count < minimumRounds {
            if untilPushed, counters.pushersFinished.load(ordering: .relaxed) == 4, pushes.count + pushesAfter.count >= minimumRounds {
                for task in load { task.cancel() }
                break
            }
            let pushing = counters.pushersFinished.load(ordering: .relaxed) < 4
            let pushStart = clock.now
            try await calm.push(server, tenant: "calm", values: 1, bytes: 20)
            if pushing { pushes.append(seconds(clock.now - pushStart)) } else { pushesAfter.append(seconds(clock.now - pushStart)) }
            let pullStart = clock.now
            let page = try await server.pull(PullRequest(replica: "calm-reader", cursor: cursor, limit: 100), tenant: "calm")
            pulls.append(seconds(clock.now - pullStart))
            cursor = page.nextCursor
            if pushersSeconds == nil, counters.pushersFinished.load(ordering: .relaxed) == 4 {
                pushersSeconds = seconds(clock.now - loadStarted)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        let elapsed = seconds(clock.now - started)
        for task in load {
            // Cancelled pulls end with an error; the pushers' are failures all the same.
            if untilPushed { _ = await task.result } else { try await task.value }
        }
        let cpu = ProcessUsage.cpuSeconds(of: getpid()) - cpuBefore
        BenchmarkStatistics.printLatencies("calm push, busy tenant pushing", pushes)
        BenchmarkStatistics.printLatencies("calm push, busy tenant pulling", pushesAfter)
        BenchmarkStatistics.printLatencies("calm tenant: pull", pulls)
        BenchmarkStatistics.printLatencies("busy tenant: a transaction's last request", counters.lastRequests.withLock { $0 })
        let pushed = Double(counters.pushedBytes.load(ordering: .relaxed)) / 1e6
        let pushingSeconds = pushersSeconds ?? elapsed
        print(String(
            format: "  the busy tenant pushed %.0f MB in %.1f s (%.1f MB/s) and pulled %.0f MB; %.1f s wall, %.1f s CPU (%.2f cores) in this process",
            pushed, pushingSeconds, pushed / max(pushingSeconds, 0.001), Double(counters.pulledBytes.load(ordering: .relaxed)) / 1e6, elapsed, cpu,
            cpu / max(elapsed, 0.001)))
        let p99 = BenchmarkStatistics.percentile(pushes, 0.99)
        print(String(format: "  calm push p99 while the busy tenant pushes %.0f ms: ", p99 * 1000) + (p99 <= 0.25 ? "within" : "past")
              + " the 250 ms target")
        await opened.close()
    }

    /// What the load tasks share: how many are done, and how much they moved.
    final class LoadCounters: Sendable {
        /// Load tasks done (four pushers, four pullers).
        let finished = Atomic<Int>(0)
        let pushersFinished = Atomic<Int>(0)
        let pushedBytes = Atomic<Int>(0)
        let pulledBytes = Atomic<Int>(0)
        /// How long each busy transaction's last request took (its last part, or the whole).
        let lastRequests = Mutex<[Double]>([])
    }

    static func seconds(_ duration: Duration) -> Double {
        let (whole, attoseconds) = duration.components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
