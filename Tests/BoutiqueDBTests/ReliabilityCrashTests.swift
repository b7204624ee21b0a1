import BoutiqueDB
import BoutiqueTestSupport
import Foundation
import Testing

/// A writer killed with SIGKILL at random moments, a hundred times over one file: after every kill the
/// file is intact, every transaction the writer saw commit is there in full, none is there in part, and
/// the change log holds exactly the committed changes.
@Suite struct ReliabilityCrashTests {
    static let kills = 100
    static let rowsPerTransaction = 3

    @Test func aHundredKillsAtRandomMomentsLoseNothingAndLeaveNothingHalfDone() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("ledger.db").path
        var random = SeededRandom(seed: 0xC2A5_4001)
        var ledger = LedgerCheck()
        var reportedTotal = 0
        for kill in 0..<Self.kills {
            let worker = try Worker.start(["ledger-until-killed", path])
            // Most kills land while transactions are being written; some during start-up and opening
            // (on the first run, while the schema is being created).
            if random.chance(85) {
                let ready = await Reliability.poll(seconds: 20) { worker.output.contains("ready") }
                #expect(ready, "run \(kill): the writer did not open the file: \(worker.output)")
            }
            try await Task.sleep(for: .milliseconds(random.int(in: 20...80)))
            worker.kill()
            _ = try await withTimeout(20) { await worker.status() }
            let output = await worker.completeOutput()
            #expect(!output.contains("error"), "run \(kill): the writer failed before it was killed: \(output)")
            let reported = Reliability.numbers(after: "committed", in: output)
            reportedTotal += reported.count
            try ledger.check(path: path, reported: reported, run: kill)
        }
        print("""
            reliability crash: \(Self.kills) kills survived, \(reportedTotal) reported commits checked, \
            \(ledger.transactions) transactions in the file checked after every kill \
            (\(ledger.transactionChecks) transaction checks in all)
            """)
        #expect(reportedTotal > Self.kills, "the writer committed too little between kills to prove anything")
    }
}

/// Checks a ledger file the way a user would find it after a crash: with plain SQLite, nothing repaired.
///
/// The whole file is checked after every kill with aggregate queries (counts per transaction and per
/// change type, one COMMIT row per logged transaction); the transactions and change-log rows written
/// since the previous check are also compared one by one, records decoded.
struct LedgerCheck {
    typealias LedgerRow = (id: Int64, part: Int64, payload: String)

    /// Transactions in the file at the last check (numbered 0 up).
    private(set) var transactions = 0
    /// Transactions checked, summed over every check.
    private(set) var transactionChecks = 0
    /// The last change-log row checked one by one.
    private var lastChangeID: Int64 = 0
    private let perTransaction = ReliabilityCrashTests.rowsPerTransaction

    mutating func check(path: String, reported: [Int64], run: Int) throws {
        let connection = try Connection(path: path)
        defer { connection.close() }
        let integrity = try connection.fetchRows("PRAGMA integrity_check").rows
        #expect(integrity == [[.text("ok")]], "run \(run): \(integrity)")

        let hasLedger = try connection.fetchValue("SELECT count(*) FROM sqlite_schema WHERE name = 'ledger'") == .integer(1)
        guard hasLedger else {
            #expect(reported.isEmpty && transactions == 0, "run \(run): the ledger table is gone after commits")
            return
        }
        // The whole file: transactions 0..<count, each with all its rows and its update.
        let count = Int(Reliability.integer(try connection.fetchValue("SELECT count(DISTINCT txn) FROM ledger") ?? .null) ?? -1)
        let summary = try connection.fetchRows("SELECT count(*), coalesce(min(txn), 0), coalesce(max(txn), -1) FROM ledger").rows
        #expect(summary == [[.integer(Int64(count * perTransaction)), .integer(0), .integer(Int64(count - 1))]],
            "run \(run): \(count) transactions but \(summary)")
        let incomplete = try connection.fetchRows(
            "SELECT txn FROM ledger GROUP BY txn HAVING count(*) <> ? OR sum(part = 0 AND payload = 'updated ' || txn) <> 1",
            [.integer(Int64(perTransaction))]).rows
        #expect(incomplete.isEmpty, "run \(run): partial transactions \(incomplete)")
        for txn in reported where txn >= count {
            Issue.record("run \(run): transaction \(txn) was reported committed and is missing (\(count) in the file)")
        }
        #expect(count >= transactions, "run \(run): \(transactions - count) committed transactions vanished")

        // The whole change log: one COMMIT row per logged transaction, and as many row changes as rows.
        let unended = try connection.fetchRows(
            "SELECT change_txn_id FROM turso_cdc GROUP BY change_txn_id HAVING sum(change_type = 2) <> 1 OR max(change_id) <> max(CASE WHEN change_type = 2 THEN change_id END)").rows
        #expect(unended.isEmpty, "run \(run): logged transactions without exactly one final COMMIT row: \(unended)")
        let ledgerChanges = try connection.fetchRows(
            "SELECT change_type, count(*), count(DISTINCT change_txn_id) FROM turso_cdc WHERE table_name = 'ledger' GROUP BY change_type ORDER BY change_type").rows
        let expectedChanges: [[DatabaseValue]] = count == 0 ? [] : [
            [.integer(0), .integer(Int64(count)), .integer(Int64(count))],
            [.integer(1), .integer(Int64(count * perTransaction)), .integer(Int64(count))],
        ]
        #expect(ledgerChanges == expectedChanges, "run \(run): \(count) transactions but logged \(ledgerChanges)")

        // The new transactions, one by one.
        var rowsByTransaction: [Int64: [LedgerRow]] = [:]
        for row in try connection.fetchRows(
            "SELECT id, txn, part, payload FROM ledger WHERE txn >= ? ORDER BY id", [.integer(Int64(transactions))]
        ).rows {
            guard let id = Reliability.integer(row[0]), let txn = Reliability.integer(row[1]),
                let part = Reliability.integer(row[2]), case .text(let payload) = row[3]
            else {
                Issue.record("run \(run): a malformed ledger row \(row)")
                continue
            }
            rowsByTransaction[txn, default: []].append((id, part, payload))
        }
        for (txn, rows) in rowsByTransaction {
            let expected = (0..<Int64(perTransaction)).map { $0 == 0 ? "updated \(txn)" : "written \(txn).\($0)" }
            if rows.map(\.part) != Array(0..<Int64(perTransaction)) || rows.map(\.payload) != expected {
                Issue.record("run \(run): transaction \(txn) is partial: \(rows)")
            }
        }
        try checkNewChanges(connection, rows: rowsByTransaction, run: run)
        transactionChecks += count
        transactions = count
    }

    /// The change-log rows since the last check: each new transaction's rows logged with their images,
    /// in transactions of their own that end with a COMMIT row.
    private mutating func checkNewChanges(_ connection: Connection, rows: [Int64: [LedgerRow]], run: Int) throws {
        let log = try connection.fetchRows(
            "SELECT change_id, change_txn_id, change_type, table_name, id, \"after\" FROM turso_cdc WHERE change_txn_id > ? ORDER BY change_id",
            [.integer(lastChangeID)]).rows
        var groups: [Int64: [[DatabaseValue]]] = [:]
        for entry in log { groups[Reliability.integer(entry[1]) ?? -1, default: []].append(entry) }
        lastChangeID = log.compactMap { Reliability.integer($0[0]) }.max() ?? lastChangeID
        let transactionOfRow = Dictionary(uniqueKeysWithValues: rows.flatMap { txn, rows in rows.map { ($0.id, txn) } })
        var loggedTransactions: [Int64] = []
        for (changeTransaction, entries) in groups {
            let types = entries.map { Reliability.integer($0[2]) ?? -99 }
            #expect(Reliability.integer(entries[0][0]) == changeTransaction, "run \(run): a transaction id that is not its first row's")
            let ledgerEntries = entries.filter { $0[3] == .text("ledger") }
            guard !ledgerEntries.isEmpty else {
                // The schema's own transaction: the migration's changes only.
                let tables = Set(entries.dropLast().map { entry -> String in
                    if case .text(let name) = entry[3] { name } else { "?" }
                })
                #expect(tables.isSubset(of: ["sqlite_schema", "boutique_migrations"]), "run \(run): unexpected changes \(tables)")
                continue
            }
            let owners = Set(ledgerEntries.compactMap { Reliability.integer($0[4]).flatMap { transactionOfRow[$0] } })
            guard owners.count == 1, let txn = owners.first, let expected = rows[txn] else {
                Issue.record("run \(run): change transaction \(changeTransaction) logs rows of transactions \(owners) or of no row")
                continue
            }
            loggedTransactions.append(txn)
            // Three inserts with the rows as written, one update leaving the final first row, the COMMIT.
            #expect(types == Array(repeating: 1, count: perTransaction) + [0, 2], "run \(run): txn \(txn) logged \(types)")
            for (index, entry) in ledgerEntries.enumerated() {
                let row = expected[index == perTransaction ? 0 : index]
                let payload = index == 0 ? "written \(txn).0" : row.payload
                let after: [DatabaseValue] = [.integer(row.id), .integer(txn), .integer(row.part), .text(payload)]
                guard case .blob(let bytes) = entry[5] else {
                    Issue.record("run \(run): txn \(txn) change without an after image")
                    continue
                }
                #expect(try RecordDecoder.decode(bytes) == after, "run \(run): txn \(txn) change \(index)")
            }
        }
        #expect(Set(loggedTransactions) == Set(rows.keys) && loggedTransactions.count == rows.count,
            "run \(run): logged \(loggedTransactions.sorted()), committed \(rows.keys.sorted())")
    }
}
