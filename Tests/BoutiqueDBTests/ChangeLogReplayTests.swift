@testable import BoutiqueDB
import BoutiqueSQLite
import BoutiqueReplayWorkload
import BoutiqueTestSupport
import Foundation
import Testing

/// The change log's strongest promise: applying its rows after a token to a copy of the database taken
/// at that token gives exactly the database at the end — every table, rowid and value, with its storage
/// class — over a random workload of everything that hides a change from a log (see ``ReplayWorkload``).
///
/// Writes come through `write`, `writeWithoutTransaction`, the temporary triggers and view each writer
/// creates, a migration applied when the database is opened again halfway, and a second process; the
/// change feed read in a third process lists the same transactions as the log. `BOUTIQUE_REPLAY_SEEDS=first-last` (or one seed) and
/// `BOUTIQUE_REPLAY_TRANSACTIONS=n` make a longer run; a failing seed is printed with the command
/// that runs it alone, and `BOUTIQUE_REPLAY_TRACE=1` replays after every transaction to name the first
/// one the log gets wrong, with its statements.
@Suite("Change log: replay")
struct ChangeLogReplayTests {
    static let seeds: [UInt64] = {
        guard let text = ProcessInfo.processInfo.environment["BOUTIQUE_REPLAY_SEEDS"] else { return Array(1...8) }
        let bounds = text.split(separator: "-").compactMap { UInt64($0) }
        if bounds.count == 2, bounds[0] <= bounds[1] { return Array(bounds[0]...bounds[1]) }
        return bounds.first.map { [$0] } ?? Array(1...8)
    }()
    static let traces = ProcessInfo.processInfo.environment["BOUTIQUE_REPLAY_TRACE"] == "1"
    static let transactionsPerSeed =
        ProcessInfo.processInfo.environment["BOUTIQUE_REPLAY_TRANSACTIONS"].flatMap(Int.init) ?? 260

    struct Totals {
        var transactions = 0
        var replayedRows = 0
        var replayedTransactions = 0
    }

    @Test func replayingTheLogAfterATokenGivesExactlyTheDatabaseAtTheEnd() async throws {
        var totals = Totals()
        for seed in Self.seeds {
            do {
                try await run(seed: seed, totals: &totals)
            } catch {
                Issue.record("""
                    seed \(seed): \(error)
                    replay it with: BOUTIQUE_REPLAY_SEEDS=\(seed) swift test --filter ChangeLogReplayTests
                    """)
            }
        }
        print(
            "change log replay: \(Self.seeds.count) seeds, \(totals.transactions) transactions run, \(totals.replayedTransactions) logged transactions and \(totals.replayedRows) rows replayed"
        )
    }

    private func run(seed: UInt64, totals: inout Totals) async throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("replay.db")
        var options = DatabaseOptions(multiProcess: true, busyTimeout: .seconds(20))
        options.prepareDatabase { conn in try ReplayWorkload.createTemporaryObjects(on: conn) }
        var database = try await DatabaseActor.open(url: url, migrations: ReplayWorkload.plan(version: 1), options: options)
        var workload = ReplayWorkload(seed: seed)
        try await database.writeWithoutTransaction { conn in
            try conn.execute("PRAGMA recursive_triggers = \(seed % 2 == 0 ? "ON" : "OFF")")
        }

        // Copies taken at a token: one at the start, one at a random point.
        var copies: [(token: Int64, url: URL)] = [try await ChangeLogCopy.take(database, to: folder.file("start.db"))]
        let count = Self.transactionsPerSeed
        let copyAt = workload.random.int(in: 1...(count - 1))
        let reopenAt = count / 2
        let otherProcessAt = [count / 4, 3 * count / 4]
        var plan = 1
        var index = 0
        var trace = Trace()
        while index < count {
            if index == copyAt {
                copies.append(try await ChangeLogCopy.take(database, to: folder.file("middle.db")))
            }
            if index == reopenAt {
                await database.close()
                plan = 2
                do {
                    database = try await DatabaseActor.open(url: url, migrations: ReplayWorkload.plan(version: 2), options: options)
                } catch { throw ChangeLogReplayer.Failure(description: "opening again with the second plan: \(error)") }
            }
            if otherProcessAt.contains(index) {
                let outcome = try await Worker.run(["replay-write", url.path, "\(plan)", "\(seed * 1000 + UInt64(index))", "12"])
                guard outcome.succeeded else { throw ChangeLogReplayer.Failure(description: "the writing process: \(outcome)") }
                index += 12
                totals.transactions += 12
                continue
            }
            let steps = workload.transaction()
            do {
                if workload.random.chance(12) {
                    try await database.writeWithoutTransaction { conn in for step in steps { try step.run(on: conn) } }
                } else {
                    try await database.write { conn in for step in steps { try step.run(on: conn) } }
                }
            } catch is ReplayWorkload.Step.Failure {
            } catch is BoutiqueError {
                // An `OR ROLLBACK` ends the transaction under the closure; the write says so.
            }
            if Self.traces { try await trace.check(database, after: steps, index: index, copies: copies, folder: folder) }
            index += 1
            totals.transactions += 1
        }
        let feed = try await Worker.run(["replay-feed", url.path, "\(plan)", "\(copies[0].token)"])
        await database.close()

        let original = try await openWhenFree(url)
        defer { original.close() }
        let integrity = try original.integrityCheck()
        guard integrity == ["ok"] else { throw ChangeLogReplayer.Failure(description: "integrity: \(integrity)") }
        let final = try DatabaseContents(of: original)
        for (token, copyURL) in copies {
            let replica = try Connection(path: copyURL.path)
            defer { replica.close() }
            let rows = try ChangeLogReplayer.rows(of: original, after: token)
            try ChangeLogReplayer(replica).apply(rows)
            let replayed = try DatabaseContents(of: replica)
            if let difference = replayed.difference(from: final) {
                throw ChangeLogReplayer.Failure(description: "replayed after token \(token), the copy differs: \(difference)")
            }
            totals.replayedRows += rows.count
            totals.replayedTransactions += rows.count(where: { $0.type == 2 })
        }

        // The feed in another process lists every logged transaction after the first token.
        let commits = try original.fetchRows(
            "SELECT change_id, (SELECT count(*) FROM turso_cdc AS c WHERE c.change_txn_id = t.change_txn_id AND c.change_type <> 2) FROM turso_cdc AS t WHERE change_type = 2 AND change_id > ? ORDER BY change_id",
            [.integer(copies[0].token)]
        ).rows.map { "\($0[0]) \($0[1])" }
        guard feed.succeeded else { throw ChangeLogReplayer.Failure(description: "the feed process: \(feed)") }
        let listed = String(feed.output.dropFirst(3).prefix { $0 != "\n" }).split(separator: ",").map(String.init)
        guard listed == commits else {
            throw ChangeLogReplayer.Failure(description: "the feed listed \(listed.count) transactions, the log has \(commits.count)")
        }
    }

    /// Replicas of the copies, replayed after every transaction, to find the first one the log gets wrong.
    struct Trace {
        var replicas: [(connection: Connection, token: Int64)] = []

        mutating func check(
            _ database: DatabaseActor, after steps: [ReplayWorkload.Step], index: Int, copies: [(token: Int64, url: URL)],
            folder: TemporaryDirectory
        ) async throws {
            while replicas.count < copies.count {
                let traced = folder.file("traced\(replicas.count).db")
                try FileManager.default.copyItem(at: copies[replicas.count].url, to: traced)
                replicas.append((try Connection(path: traced.path), copies[replicas.count].token))
            }
            for replica in replicas.indices {
                let since = replicas[replica].token
                let (rows, contents) = try await database.read { conn in
                    (try ChangeLogReplayer.rows(of: conn.connection, after: since), try DatabaseContents(of: conn.connection))
                }
                var failure: String?
                do {
                    try ChangeLogReplayer(replicas[replica].connection).apply(rows)
                    failure = try DatabaseContents(of: replicas[replica].connection).difference(from: contents)
                } catch {
                    failure = "\(error)"
                }
                if let failure {
                    throw ChangeLogReplayer.Failure(
                        description: "transaction \(index) (copy \(replica)): \(failure)\nits steps: \(steps)\nits log rows: \(rows)")
                }
                if let last = rows.last { replicas[replica].token = last.changeID }
            }
        }
    }

    /// A connection to `url`, opened once the database just closed has let go of the file (its last
    /// connection checkpoints the log on the way out, holding the file meanwhile).
    private func openWhenFree(_ url: URL) async throws -> Connection {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(hangDeadline(seconds: 10))
        while true {
            if let connection = try open(url, failingBusyOnlyAfter: clock.now >= deadline) { return connection }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// A connection to `url`, or `nil` while the file is busy (unless `last`).
    private func open(_ url: URL, failingBusyOnlyAfter last: Bool) throws(SQLiteError) -> Connection? {
        do {
            let connection = try Connection(path: url.path)
            try connection.setBusyTimeout(milliseconds: 10_000)
            return connection
        } catch {
            if error.code == .busy, !last { return nil }
            throw error
        }
    }
}
