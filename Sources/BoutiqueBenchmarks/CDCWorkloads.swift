import BoutiqueDB
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What change capture costs a write: 50,000 single-row inserts in one transaction, through
/// `DatabaseActor.write`, with the log off, in `id` mode and in `full` mode, each row inserted by a
/// prepared statement and again by the query builder; and beside them what the same log costs SQLite
/// alone (``RawChangeLog``), the floor of those ratios.
///
///     swift run -c release boutique-benchmarks --changes
///
/// Each round opens a fresh file (not timed), so the log does not grow from round to round; the
/// variants run round-robin, after a warm-up round, and the medians are compared with `off`. Besides
/// wall-clock time the process's CPU time is measured: on a loaded machine it is far steadier, since
/// the write runs on one thread and does not wait for the disk (WAL, `synchronous = NORMAL`).
enum CDCWorkloads {
    static let rows = 50_000

    /// How each insert is made.
    enum InsertPath {
        /// One cached prepared statement, bound and stepped per row: the least work around SQLite.
        case statement
        /// `Item.insert([row]).execute(conn)` per row: what an app's code looks like.
        case queryBuilder
    }

    /// One timed line of the report.
    private struct Line {
        let name: String
        let run: () async throws -> (wall: Double, cpu: Double)
    }

    /// Lines compared with the group's first.
    private struct Group {
        let title: String
        let lines: [Line]
    }

    static func measureInsertCost(rounds: Int) async throws {
        let modes: [ChangeCaptureMode] = [.off, .id, .full]
        let groups = [
            Group(
                title: "a prepared INSERT per row, through DatabaseActor.write; ratio to CDC off",
                lines: modes.map { mode in Line(name: "CDC \(mode.rawValue)") { try await insertOnce(mode: mode) } }),
            Group(
                title: "Item.insert([row]).execute per row, through DatabaseActor.write; ratio to CDC off",
                lines: [ChangeCaptureMode.off, .full].map { mode in
                    Line(name: "CDC \(mode.rawValue)") { try await insertOnce(mode: mode, path: .queryBuilder) }
                }),
            Group(
                title: "raw C API, the same log written by hand (the floor); ratio to raw inserts alone",
                lines: RawChangeLog.Variant.allCases.map { variant in
                    Line(name: "raw \(variant.rawValue)") { RawChangeLog.insertOnce(variant, rows: rows) }
                }),
        ]
        let lines = groups.flatMap(\.lines)
        var wall = Array(repeating: [Double](), count: lines.count)
        var cpu = Array(repeating: [Double](), count: lines.count)
        for round in 0...rounds {
            for (index, line) in lines.enumerated() {
                let sample = try await line.run()
                guard round > 0 else { continue }
                wall[index].append(sample.wall)
                cpu[index].append(sample.cpu)
            }
        }
        for (title, samples) in [("wall-clock time", wall), ("CPU time", cpu)] {
            print("\ninsert \(rows) rows in one transaction, \(title) — median of \(rounds) rounds (min … max)")
            var index = 0
            for group in groups {
                print("  \(group.title):")
                let baseline = BenchmarkStatistics.median(samples[index])
                for line in group.lines {
                    BenchmarkStatistics.printLine(
                        line.name, median: BenchmarkStatistics.median(samples[index]),
                        min: samples[index].min() ?? .nan, max: samples[index].max() ?? .nan, baseline: baseline)
                    index += 1
                }
            }
        }
    }

    /// The CPU time the process has used, in seconds.
    static func processCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Times one 50,000-row write transaction on a fresh database in `mode`: wall-clock and CPU seconds.
    static func insertOnce(mode: ChangeCaptureMode, path insertPath: InsertPath = .statement) async throws
        -> (wall: Double, cpu: Double)
    {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("boutique-bench-cdc-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let database = try await DatabaseActor.open(
            url: URL(fileURLWithPath: path), migrations: BenchmarkPlans.items,
            options: .init(changeCapture: .init(mode: mode)))
        let count = rows
        let startCPU = processCPUTime()
        let start = DispatchTime.now().uptimeNanoseconds
        try await database.write { conn in
            switch insertPath {
            case .statement:
                let statement = try conn.connection.cachedStatement(
                    "INSERT INTO item(i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                for row in 0..<count {
                    for column in 0..<10 { try statement.bind(Int64(row + column), at: Int32(column + 1)) }
                    try statement.run()
                }
            case .queryBuilder:
                for row in 0..<count {
                    try Item.insert([Item(
                        i0: row, i1: row + 1, i2: row + 2, i3: row + 3, i4: row + 4, i5: row + 5, i6: row + 6,
                        i7: row + 7, i8: row + 8, i9: row + 9)]).execute(conn.connection)
                }
            }
        }
        let end = DispatchTime.now().uptimeNanoseconds
        let endCPU = processCPUTime()
        await database.close()
        return (Double(end - start) / 1e9, endCPU - startCPU)
    }
}

/// Migration plans of the change benchmarks.
enum BenchmarkPlans {
    static let items = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_item") { conn in
            try conn.execute("CREATE TABLE item (i0 INT, i1 INT, i2 INT, i3 INT, i4 INT, i5 INT, i6 INT, i7 INT, i8 INT, i9 INT)")
        }
    }

    /// The plan `BoutiqueTestWorker stamp` opens files with.
    static let stamps = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_stamps") { conn in
            try conn.execute("CREATE TABLE stamp(id INTEGER PRIMARY KEY, sentAt REAL NOT NULL)")
            try conn.execute("CREATE TABLE other(id INTEGER PRIMARY KEY, sentAt REAL NOT NULL)")
        }
    }
}

/// Medians, percentiles and the printed lines of the change benchmarks.
enum BenchmarkStatistics {
    static func median(_ samples: [Double]) -> Double { percentile(samples, 0.5) }

    /// The `fraction` percentile (nearest rank) of `samples`.
    static func percentile(_ samples: [Double], _ fraction: Double) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    static func printLine(_ name: String, median: Double, min: Double, max: Double, baseline: Double) {
        let line = "  " + name.padding(toLength: 34, withPad: " ", startingAt: 0)
            + String(format: "%8.2f ms  (%8.2f ms … %8.2f ms)  %.3f×", median * 1000, min * 1000, max * 1000, median / baseline)
        print(line)
    }

    /// Prints p50, p99 and max of latencies given in seconds.
    static func printLatencies(_ name: String, _ samples: [Double]) {
        let line = "  " + name.padding(toLength: 34, withPad: " ", startingAt: 0)
            + String(format: "p50 %7.3f ms   p99 %7.3f ms   max %7.3f ms   (%d samples)",
                percentile(samples, 0.5) * 1000, percentile(samples, 0.99) * 1000, (samples.max() ?? .nan) * 1000, samples.count)
        print(line)
    }
}
