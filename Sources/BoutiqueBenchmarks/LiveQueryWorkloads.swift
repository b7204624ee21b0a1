import BoutiqueDB
import Foundation
import Observation

/// How fast a commit reaches a live query, in this process and from another one, and what commits to
/// other tables cost.
///
///     swift run -c release boutique-benchmarks --changes
///
/// Latency is measured from inside the write closure, just before `COMMIT`, to the moment the new
/// value is seen: on the main actor for `@LiveQuery`, in the consuming task for `observe(_:)`, and
/// across processes from the time the other process stamped its row.
enum LiveQueryWorkloads {
    static let commits = 1_000

    /// A view model as an app has one.
    @MainActor
    final class CounterModel {
        @LiveQuery<Counter> var counters: [Counter]
        init(_ db: BoutiqueDB) { _counters = LiveQuery(db, { Counter.all.order { $0.id.desc() }.limit(5) }) }
    }

    @MainActor
    static func measureInProcessLatency() async throws {
        let directory = try BenchmarkDirectory()
        let db = try await BoutiqueDB.open(url: directory.file("latency.db"), migrations: counterPlan)
        let model = CounterModel(db)
        while model.$counters.isLoading { await Task.yield() }

        var wrapperLatencies: [Double] = []
        var landingLatencies: [Double] = []
        let landedAt = Lock<Double>(0)
        for index in 0..<commits {
            // Observation reports the change as the new value is set, on the main actor: the moment a
            // view could show it, whatever else the main actor then runs first.
            withObservationTracking { _ = model.counters } onChange: { landedAt.withLock { $0 = now() } }
            let committedAt = try await insertCounter(db, index)
            while model.counters.first?.id != Int64(index + 1) { await Task.yield() }
            wrapperLatencies.append(now() - committedAt)
            landingLatencies.append(landedAt.withLock { $0 } - committedAt)
        }

        let seen = LatestValue()
        let consumer = Task.detached {
            for try await counters in db.observe(Counter.all.order { $0.id.desc() }.limit(5)) {
                seen.record(counters.first?.id ?? 0, at: now())
            }
        }
        var streamLatencies: [Double] = []
        for index in commits..<(2 * commits) {
            let committedAt = try await insertCounter(db, index)
            let seenAt = await seen.wait(for: Int64(index + 1))
            streamLatencies.append(seenAt - committedAt)
        }
        consumer.cancel()
        await db.close()

        print("\ncommit → live query value, in process, \(commits) commits, query of 5 rows")
        BenchmarkStatistics.printLatencies("@LiveQuery (main actor)", wrapperLatencies)
        BenchmarkStatistics.printLatencies("  the value set on the main actor", landingLatencies)
        BenchmarkStatistics.printLatencies("db.observe(_:) (a task)", streamLatencies)
    }

    /// What a live query costs the writes it follows: 2,000 awaited one-row writes to the table a
    /// `@LiveQuery` of 5 rows reads, against the same writes with nobody observing, interleaved.
    /// A quick query is refreshed on the writer's thread right after each commit, so the write pays for
    /// its fetch; without it each commit would wake a reader's queue instead.
    @MainActor
    static func measureObservedWrites(rounds: Int) async throws {
        let count = 2_000
        var plain: [Double] = []
        var observed: [Double] = []
        for round in 0...rounds {
            for isObserved in [false, true] {
                let directory = try BenchmarkDirectory()
                let db = try await BoutiqueDB.open(url: directory.file("observed.db"), migrations: counterPlan)
                let model = isObserved ? CounterModel(db) : nil
                while model?.$counters.isLoading == true { await Task.yield() }
                let start = now()
                for index in 0..<count { _ = try await insertCounter(db, index) }
                let seconds = now() - start
                if let model { while model.counters.first?.id != Int64(count) { await Task.yield() } }
                await db.close()
                guard round > 0 else { continue }
                if isObserved { observed.append(seconds) } else { plain.append(seconds) }
            }
        }
        let baseline = BenchmarkStatistics.median(plain)
        print("\n\(count) awaited one-row writes, median of \(rounds) rounds (min … max), ratio to unobserved")
        BenchmarkStatistics.printLine(
            "nobody observing", median: baseline, min: plain.min() ?? .nan, max: plain.max() ?? .nan, baseline: baseline)
        BenchmarkStatistics.printLine(
            "a @LiveQuery on the table", median: BenchmarkStatistics.median(observed), min: observed.min() ?? .nan,
            max: observed.max() ?? .nan, baseline: baseline)
    }

    @MainActor
    static func measureUnrelatedCommits() async throws {
        let directory = try BenchmarkDirectory()
        let db = try await BoutiqueDB.open(url: directory.file("unrelated.db"), migrations: counterPlan)
        let model = CounterModel(db)
        while model.$counters.isLoading { await Task.yield() }
        let before = model.$counters.fetchCount
        for index in 0..<commits {
            try await db.write { conn in try conn.execute("INSERT INTO other(label) VALUES (?)", [.text("\(index)")]) }
        }
        try await Task.sleep(for: .milliseconds(100))
        let after = model.$counters.fetchCount
        await db.close()
        print("\n\(commits) commits to a table the live query does not read")
        print("  re-fetches: \(after - before)")
    }

    @MainActor
    static func measureCrossProcessLatency() async throws {
        guard let worker = workerURL() else {
            print("\ncross-process latency: BoutiqueTestWorker not found beside the benchmark; build it with `swift build -c release`")
            return
        }
        let directory = try BenchmarkDirectory()
        let path = directory.file("shared.db").path
        let db = try await BoutiqueDB.open(
            url: URL(fileURLWithPath: path), migrations: BenchmarkPlans.stamps, options: .init(multiProcess: true))
        let latencies = LatencyLog()
        let consumer = Task.detached {
            var seen = 0
            for try await stamps in db.observe(Stamp.all.order { $0.id }) {
                let receivedAt = now()
                for stamp in stamps.dropFirst(seen) { latencies.add(receivedAt - stamp.sentAt) }
                seen = stamps.count
            }
        }
        let count = 300
        let process = Process()
        process.executableURL = worker
        process.arguments = ["stamp", path, "stamp", "\(count)", "--pause", "0.01"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        while latencies.count < count {
            guard process.isRunning || latencies.count < count else { break }
            try await Task.sleep(for: .milliseconds(10))
            if !process.isRunning, latencies.count < count {
                try await Task.sleep(for: .milliseconds(500))
                break
            }
        }
        consumer.cancel()
        await db.close()
        print("\ncommit → observe(_:) value, from another process, \(count) commits 10 ms apart")
        BenchmarkStatistics.printLatencies("another process → db.observe", latencies.samples)
    }

    // MARK: Support

    static let counterPlan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_counter") { conn in
            try conn.execute("CREATE TABLE counter(id INTEGER PRIMARY KEY, label TEXT NOT NULL)")
            try conn.execute("CREATE TABLE other(id INTEGER PRIMARY KEY, label TEXT NOT NULL)")
        }
    }

    /// Inserts counter row `index + 1` from the main actor, as an app's code writes; returns the time
    /// just before its commit.
    @MainActor
    static func insertCounter(_ db: BoutiqueDB, _ index: Int) async throws -> Double {
        try await db.write { conn in
            try conn.execute("INSERT INTO counter(id, label) VALUES (?, ?)", [.integer(Int64(index + 1)), .text("\(index)")])
            return now()
        }
    }

    static func now() -> Double {
        Date().timeIntervalSince1970
    }

    static func workerURL() -> URL? {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let url = folder.appendingPathComponent("BoutiqueTestWorker")
        return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
    }
}

@Table("counter")
struct Counter: Sendable {
    @Column(primaryKey: true) var id: Int64
    var label: String
}

@Table("stamp")
struct Stamp: Sendable {
    @Column(primaryKey: true) var id: Int64
    var sentAt: Double
}

/// The latest value a consumer saw and when; the measuring loop waits on it.
final class LatestValue: Sendable {
    private let state = Lock<(value: Int64, at: Double, waiter: (Int64, CheckedContinuation<Double, Never>)?)>((0, 0, nil))

    func record(_ value: Int64, at time: Double) {
        let resume = state.withLock { state -> (CheckedContinuation<Double, Never>, Double)? in
            state.value = value
            state.at = time
            guard let (wanted, continuation) = state.waiter, value >= wanted else { return nil }
            state.waiter = nil
            return (continuation, time)
        }
        resume.map { $0.0.resume(returning: $0.1) }
    }

    /// The time the consumer saw `value` (or a later one).
    func wait(for value: Int64) async -> Double {
        await withCheckedContinuation { continuation in
            let seen: Double? = state.withLock { state in
                if state.value >= value { return state.at }
                state.waiter = (value, continuation)
                return nil
            }
            if let seen { continuation.resume(returning: seen) }
        }
    }
}

/// Latencies gathered by a consumer task.
final class LatencyLog: Sendable {
    private let state = Lock<[Double]>([])
    func add(_ latency: Double) { state.withLock { $0.append(latency) } }
    var samples: [Double] { state.withLock { $0 } }
    var count: Int { state.withLock { $0.count } }
}

/// A temporary folder removed when the value goes away.
final class BenchmarkDirectory {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("boutique-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Runs the change-capture and live-query benchmarks.
enum ChangeBenchmarks {
    @MainActor
    static func run(rounds: Int) async throws {
        try await CDCWorkloads.measureInsertCost(rounds: rounds)
        try await LiveQueryWorkloads.measureInProcessLatency()
        try await LiveQueryWorkloads.measureObservedWrites(rounds: rounds)
        try await LiveQueryWorkloads.measureUnrelatedCommits()
        try await LiveQueryWorkloads.measureCrossProcessLatency()
    }
}
