import BoutiqueDB
import Foundation
import Testing

/// Four processes share one file, each committing 2,000 transactions as fast as it can while a live
/// query in each watches the whole table: every transaction lands, no process sees SQLITE_BUSY, and
/// every live query ends on the final count.
@Suite struct ReliabilityLoadTests {
    static let processes = 4
    static let transactionsPerProcess = 2_000

    @Test func fourProcessesCommitTwoThousandTransactionsEachWhileTheirLiveQueriesFollow() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("load.db").path
        let total = Self.processes * Self.transactionsPerProcess
        // The file and its schema exist before the writers start, so that they all begin writing together.
        let setup = try await DatabaseActor.open(
            url: URL(fileURLWithPath: path), migrations: ReliabilityLoadPlan.plan, options: .init(multiProcess: true))
        await setup.close()

        let startAt = String(Date().timeIntervalSince1970 + 1.0)
        let started = Date()
        let workers = try (0..<Self.processes).map { index in
            try Worker.start([
                "load", path, "P\(index)", "\(Self.transactionsPerProcess)", "\(total)", "--start-at", startAt,
            ])
        }
        var outcomes: [Worker.Outcome] = []
        for worker in workers {
            outcomes.append(try await withTimeout(120) { await Worker.finish(worker) })
        }
        let elapsed = Date().timeIntervalSince(started)
        for (index, outcome) in outcomes.enumerated() {
            // A worker that met SQLITE_BUSY (or any error) exits with `error: sql 5 …` instead.
            #expect(outcome.succeeded, "process \(index): \(outcome)")
            #expect(
                outcome.output == "ok wrote \(Self.transactionsPerProcess) observed \(total)",
                "process \(index): its live query did not end on the final count: \(outcome.output)")
        }

        let database = try await DatabaseActor.open(
            url: URL(fileURLWithPath: path), migrations: ReliabilityLoadPlan.plan, options: .init(multiProcess: true))
        let perProcess = try await database.read { conn in
            try conn.fetchAll("SELECT tag, count(*), count(DISTINCT n), min(n), max(n) FROM loadRow GROUP BY tag ORDER BY tag")
        }
        let expected: [[DatabaseValue]] = (0..<Self.processes).map { index in
            let count = Int64(Self.transactionsPerProcess)
            return [.text("P\(index)"), .integer(count), .integer(count), .integer(0), .integer(count - 1)]
        }
        #expect(perProcess.map { Array($0) } == expected)
        let commits = try await database.read { conn in
            try conn.fetchValue("SELECT count(*) FROM turso_cdc WHERE change_type = 2 AND change_txn_id IN (SELECT change_txn_id FROM turso_cdc WHERE table_name = 'loadRow')")
        }
        #expect(commits == .integer(Int64(total)), "one logged COMMIT per transaction")
        let integrity = try await database.read { conn in try conn.fetchAll("PRAGMA integrity_check").map { "\($0[0])" } }
        #expect(integrity == ["ok"])
        await database.close()
        print("""
            reliability load: \(Self.processes) processes × \(Self.transactionsPerProcess) transactions, \
            \(perProcess.count * Self.transactionsPerProcess) present, \
            live queries ended on \(outcomes.map { $0.output.split(separator: " ").last ?? "?" }), \
            \(String(format: "%.1f", elapsed)) s
            """)
    }
}

/// The schema the `load` worker writes (the same migration, so that the history matches).
enum ReliabilityLoadPlan {
    static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_load") { conn in
            try conn.execute("CREATE TABLE loadRow(id INTEGER PRIMARY KEY, tag TEXT NOT NULL, n INTEGER NOT NULL)")
        }
    }
}
