import BoutiqueDB
import Foundation
import Synchronization

/// What the database layer costs around SQLite: the hop of a small write to the writer actor, and how
/// reads on the reader pool scale while a writer commits.
///
///     swift run -c release boutique-benchmarks --database
enum DatabaseWorkloads {
    static let smallWrites = 10_000
    static let readRows = 10_000

    /// 10,000 one-row write transactions through `DatabaseActor.write` (change log off and full), awaited
    /// one by one on the main actor as an app's code awaits them, against the same transactions on a raw
    /// connection (`BEGIN IMMEDIATE` / `INSERT` / `COMMIT`), WAL, NORMAL.
    /// Also: the same writes from a detached task (off the main actor), 10,000 round trips to the writer that run no
    /// SQL (the hop alone; its ratio is to the raw transactions, for scale), and the raw transactions run
    /// by another thread while the caller waits: what handing work to any other thread costs here, with
    /// no Swift concurrency at all (the floor under every actor hop).
    @MainActor
    static func measureSmallWrites(rounds: Int) async throws {
        let names = [
            "raw Connection", "DatabaseActor.write, CDC off", "DatabaseActor.write, CDC full",
            "  same, CDC off, detached task", "  hop alone (empty closure)",
            "  raw Connection on another thread", "  floor: raw + log row + COMMIT row",
            "  same, CDC full, detached task", "  floor on another thread",
        ]
        var samples = Array(repeating: [Double](), count: names.count)
        var loaded = Array(repeating: [Double](), count: 3)
        for round in 0...rounds {
            for index in names.indices {
                let seconds = try await smallWritesOnce(variant: index)
                if round > 0 { samples[index].append(seconds) }
            }
            // The same raw, log-off and full-log writes beside a thread that keeps a core busy, so that
            // neither setting is tuned at the other's expense.
            let neighbour = BusyNeighbour()
            for index in loaded.indices {
                let seconds = try await smallWritesOnce(variant: index)
                if round > 0 { loaded[index].append(seconds) }
            }
            neighbour.stop()
        }
        print("\n\(smallWrites) one-row write transactions (WAL) — median of \(rounds) rounds (min … max), ratio to raw")
        let baseline = BenchmarkStatistics.median(samples[0])
        for (index, name) in names.enumerated() {
            BenchmarkStatistics.printLine(
                name, median: BenchmarkStatistics.median(samples[index]), min: samples[index].min() ?? .nan,
                max: samples[index].max() ?? .nan, baseline: baseline)
        }
        let median = { (index: Int) in BenchmarkStatistics.median(samples[index]) }
        // The trip a one-row write pays, measured: what the write without a log adds to the same SQL run
        // raw. An empty round trip costs less, since neither thread falls asleep during it.
        print(String(format: "  full change log ÷ (floor + trip), the trip being change log off − raw: %.3f×",
                     median(2) / (median(6) + median(1) - median(0))))
        print(String(format: "  full change log ÷ (floor + hop alone): %.3f×", median(2) / (median(6) + median(4))))
        print(String(format: "  full change log ÷ floor on another thread: %.3f×; change log off ÷ raw on another thread: %.3f×",
                     median(2) / median(8), median(1) / median(5)))
        // The same sum with no BoutiqueDB in it: the floor handed to another thread against the floor
        // plus the trip the raw transaction pays to that thread. Above 1 when the trip grows with the
        // work handed over, as it does where a waiting core halts (see `HandoffCost`).
        print(String(format: "  floor on another thread ÷ (floor + raw's trip to another thread): %.3f×",
                     median(8) / (median(6) + median(5) - median(0))))
        // Work handed to another thread pays more than the hop: the caller's core falls idle while the
        // work runs, and what waking it costs is the machine's (see `IdleCores`).
        let perWrite = { (index: Int) in median(index) / Double(smallWrites) * 1e6 }
        print(String(format: "  handed to another thread, per transaction: raw +%.1f µs, floor +%.1f µs; hop alone %.1f µs",
                     perWrite(5) - perWrite(0), perWrite(8) - perWrite(6), perWrite(4)))
        if let idle = IdleCores.describe() { print("  \(idle)") }
        // Why the trip is not one fixed cost: it grows with how long the caller's core sleeps.
        try HandoffCost.measure(rounds: rounds)
        print("\nthe same beside a busy neighbour thread — ratio to raw, loaded")
        let loadedBaseline = BenchmarkStatistics.median(loaded[0])
        for (index, name) in names.prefix(3).enumerated() {
            BenchmarkStatistics.printLine(
                name, median: BenchmarkStatistics.median(loaded[index]), min: loaded[index].min() ?? .nan,
                max: loaded[index].max() ?? .nan, baseline: loadedBaseline)
        }
    }

    /// The floor under a one-row transaction with the full change log: the same insert, its log row
    /// (with the row's after-image record) and the COMMIT row, on a raw connection on the calling thread
    /// (or handed to another thread, as ``HandoffThread`` does).
    static func floorOnce(path: String, count: Int, onAnotherThread: Bool) throws -> Double {
        let connection = try Connection(path: path)
        try connection.setJournalMode(.wal)
        try connection.setSynchronous(.normal)
        try connection.execute("""
            CREATE TABLE item (i0 INT, i1 INT, i2 INT, i3 INT, i4 INT, i5 INT, i6 INT, i7 INT, i8 INT, i9 INT);
            CREATE TABLE turso_cdc (change_id INTEGER PRIMARY KEY AUTOINCREMENT, change_time INTEGER,
              change_txn_id INTEGER, change_type INTEGER, table_name TEXT, id, "before" BLOB, "after" BLOB, updates BLOB);
            """)
        let transaction = { (row: Int) throws in
            let firstID = Int64(2 * row + 1)
            let time = Int64(Date().timeIntervalSince1970)
            try connection.beginTransaction(.immediate)
            let insert = try connection.cachedStatement("INSERT INTO item (i0) VALUES (?)")
            try insert.bind(row, at: 1)
            try insert.run()
            let log = try connection.cachedStatement("""
                INSERT INTO turso_cdc(change_time, change_txn_id, change_type, table_name, id, "before", "after", updates)
                VALUES (?, ?, 1, 'item', ?, NULL, ?, NULL)
                """)
            try log.bind(time, at: 1)
            try log.bind(firstID, at: 2)
            try log.bind(connection.lastInsertRowID, at: 3)
            try log.bind(RecordEncoder.encode([.integer(Int64(row))] + Array(repeating: .null, count: 9)), at: 4)
            try log.run()
            let commit = try connection.cachedStatement("INSERT INTO turso_cdc(change_time, change_txn_id, change_type) VALUES (?, ?, 2)")
            try commit.bind(time, at: 1)
            try commit.bind(firstID, at: 2)
            try commit.run()
            try connection.commit()
        }
        defer { connection.close() }
        if onAnotherThread { return try HandoffThread.time(count, transaction) }
        let start = DispatchTime.now().uptimeNanoseconds
        for row in 0..<count { try transaction(row) }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    @MainActor
    static func smallWritesOnce(variant: Int) async throws -> Double {
        let path = temporaryPath("writes")
        defer { remove(path) }
        let count = smallWrites
        if variant == 6 || variant == 8 { return try floorOnce(path: path, count: count, onAnotherThread: variant == 8) }
        if variant == 0 || variant == 5 {
            let connection = try Connection(path: path)
            try connection.setJournalMode(.wal)
            try connection.setSynchronous(.normal)
            try connection.execute("CREATE TABLE item (i0 INT, i1 INT, i2 INT, i3 INT, i4 INT, i5 INT, i6 INT, i7 INT, i8 INT, i9 INT)")
            let transaction = { (row: Int) throws in
                try connection.beginTransaction(.immediate)
                let insert = try connection.cachedStatement("INSERT INTO item (i0) VALUES (?)")
                try insert.bind(row, at: 1)
                try insert.run()
                try connection.commit()
            }
            if variant == 5 { return try HandoffThread.time(count, transaction) }
            let start = DispatchTime.now().uptimeNanoseconds
            for row in 0..<count { try transaction(row) }
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        let database = try await DatabaseActor.open(
            url: URL(fileURLWithPath: path), migrations: BenchmarkPlans.items,
            options: .init(changeCapture: .init(mode: variant == 2 || variant == 7 ? .full : .off)))
        let seconds: Double
        switch variant {
        case 3, 7: seconds = try await Task.detached { try await writeRows(count, to: database) }.value
        case 4: seconds = try await hop(count, to: database)
        default: seconds = try await writeRows(count, to: database)
        }
        await database.close()
        return seconds
    }

    /// `count` one-row write transactions, one after another, from the caller's isolation.
    private nonisolated(nonsending) static func writeRows(_ count: Int, to database: DatabaseActor) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for row in 0..<count {
            try await database.write { conn in
                let insert = try conn.connection.cachedStatement("INSERT INTO item (i0) VALUES (?)")
                try insert.bind(row, at: 1)
                try insert.run()
            }
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// `count` round trips to the writer that run no SQL: what the hop itself costs.
    private nonisolated(nonsending) static func hop(_ count: Int, to database: DatabaseActor) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<count { try await database.writeWithoutTransaction { _ in } }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Four reads of 10,000 rows at once on the reader pool against the same four one after another,
    /// while a writer commits one-row transactions in a loop.
    static func measureReadScaling(rounds: Int) async throws {
        let path = temporaryPath("reads")
        defer { remove(path) }
        let database = try await DatabaseActor.open(
            url: URL(fileURLWithPath: path), migrations: BenchmarkPlans.items, options: .init(readerCount: 4))
        try await database.write { conn in
            try Item.insert {
                for row in 0..<readRows {
                    Item(i0: row, i1: row, i2: row, i3: row, i4: row, i5: row, i6: row, i7: row, i8: row, i9: row)
                }
            }.execute(conn.connection)
        }
        let writer = Task {
            var row = 0
            while !Task.isCancelled {
                let value = Int64(row)
                try await database.write { conn in
                    try conn.execute("INSERT INTO item (i0) VALUES (?)", [.integer(value)])
                }
                row += 1
            }
        }
        var sequential: [Double] = []
        var concurrent: [Double] = []
        for round in 0...rounds {
            var start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<4 { _ = try await readOnce(database) }
            let one = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            start = DispatchTime.now().uptimeNanoseconds
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 { group.addTask { try await readOnce(database) } }
                for try await _ in group {}
            }
            let four = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            if round > 0 {
                sequential.append(one)
                concurrent.append(four)
            }
        }
        writer.cancel()
        _ = await writer.result
        await database.close()
        print("\n4 reads of \(readRows) rows while a writer commits — median of \(rounds) rounds (min … max), ratio to one after another")
        let baseline = BenchmarkStatistics.median(sequential)
        BenchmarkStatistics.printLine(
            "one after another", median: baseline, min: sequential.min() ?? .nan, max: sequential.max() ?? .nan,
            baseline: baseline)
        BenchmarkStatistics.printLine(
            "four at once", median: BenchmarkStatistics.median(concurrent), min: concurrent.min() ?? .nan,
            max: concurrent.max() ?? .nan, baseline: baseline)
    }

    static func readOnce(_ database: DatabaseActor) async throws -> Int {
        try await database.read { conn in
            try Item.all.limit(readRows).fetchAll(conn.connection).count
        }
    }

    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("boutique-bench-\(name)-\(UUID().uuidString).sqlite").path
    }

    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}

/// A thread that keeps one core busy until stopped: the loaded-machine variant's neighbour.
private final class BusyNeighbour: Sendable {
    private let running = Atomic<Bool>(true)

    init() {
        Thread { [self] in
            var x: UInt64 = 1
            while self.running.load(ordering: .relaxed) { x = x &* 6_364_136_223_846_793_005 &+ 1 }
            if x == 0 { print("") }
        }.start()
    }

    func stop() { running.store(false, ordering: .relaxed) }
}
