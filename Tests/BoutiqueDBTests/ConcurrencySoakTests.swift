import BoutiqueSQLite
import Foundation
import Testing

@testable import BoutiqueDB

/// Many tasks at once on one database — live queries opened and dropped, reads, writes, writes
/// cancelled midway, the change feed, `checkForExternalChanges` — while another process writes the
/// same file and one task closes the database at a random moment; cycle after cycle for a bounded
/// time (`BOUTIQUE_SOAK_SECONDS`, 20 by default).
///
/// After each cycle: every awaited call returned or threw `databaseClosed`/`cancelled` (anything else,
/// or a call still waiting 20 s after the close, fails), no reader is lent out, no observation is left
/// subscribed, and, reopened, the file passes `integrity_check` and holds every write that returned.
@Suite struct ConcurrencySoakTests {
    static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_create_row") { conn in
            try conn.execute("CREATE TABLE row(id INTEGER PRIMARY KEY, tag TEXT NOT NULL, n INTEGER NOT NULL)")
        }
    }

    @Table("row")
    struct Row: Sendable {
        @Column(primaryKey: true) var id: Int64
        var tag: String
        var n: Int
    }

    /// What the tasks of one cycle saw.
    final class Ledger: Sendable {
        private struct State {
            var acknowledged: Set<String> = []
            var unexpected: [String] = []
            var calls = 0
            var closedOrCancelled = 0
        }
        private let state = Lock(State())

        func acknowledge(_ tag: String, _ n: Int) { state.withLock { $0.acknowledged.insert("\(tag)#\(n)"); $0.calls += 1 } }
        func returned() { state.withLock { $0.calls += 1 } }

        /// Records an error; returns whether the task should stop (the database is closed).
        func threw(_ error: any Error, in task: String) -> Bool {
            state.withLock { state in
                state.calls += 1
                switch error as? BoutiqueError {
                case .databaseClosed?:
                    state.closedOrCancelled += 1
                    return true
                case .cancelled?:
                    state.closedOrCancelled += 1
                    return false
                default:
                    if error is CancellationError {
                        state.closedOrCancelled += 1
                        return false
                    }
                    state.unexpected.append("\(task): \(error)")
                    return false
                }
            }
        }

        var acknowledged: Set<String> { state.withLock { $0.acknowledged } }
        var unexpected: [String] { state.withLock { $0.unexpected } }
        var counts: (calls: Int, closedOrCancelled: Int) { state.withLock { ($0.calls, $0.closedOrCancelled) } }
    }

    @Test func tasksOpeningDroppingReadingWritingAndCancellingWhileTheDatabaseClosesLeaveNothingBehind() async throws {
        let seconds = ProcessInfo.processInfo.environment["BOUTIQUE_SOAK_SECONDS"].flatMap(Double.init) ?? 20
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("boutique-soak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("soak.db")
        let setup = try await DatabaseActor.open(url: url, migrations: Self.plan, options: .init(multiProcess: true))
        await setup.close()
        let neighbour = try Worker.start(["insert", url.path, "1000000", "neighbour", "--pause", "0.003"])
        defer { neighbour.kill() }

        let started = ContinuousClock.now
        let deadline = started + .seconds(seconds)
        var cycles = 0
        var totals = (calls: 0, closedOrCancelled: 0, acknowledged: 0)
        var longestCycle = Duration.zero
        repeat {
            cycles += 1
            let cycleStarted = ContinuousClock.now
            let ledger = Ledger()
            let database = try await DatabaseActor.open(
                url: url, migrations: Self.plan, options: .init(multiProcess: true, busyTimeout: .seconds(20)))
            let closeAfter = Duration.milliseconds(Int.random(in: 300...1_500))
            let stuck = await Self.storm(database, ledger: ledger, cycle: cycles, closeAfter: closeAfter)
            #expect(stuck.isEmpty, "cycle \(cycles): still waiting \(hangDeadline(seconds: 60)) s after the close: \(stuck)")
            #expect(ledger.unexpected.isEmpty, "cycle \(cycles): \(ledger.unexpected.prefix(5))")
            #expect(!database.readers.hasReadsInProgress, "cycle \(cycles): a reader is still lent out")
            #expect(database.changeCenter.notifier.subscriberCount == 0, "cycle \(cycles): an observation is still subscribed")

            let reopened = try await DatabaseActor.open(url: url, migrations: Self.plan, options: .init(multiProcess: true, busyTimeout: .seconds(20)))
            let prefix = "cycle\(cycles)-%"
            let (integrity, stored) = try await reopened.read { conn -> (String, Set<String>) in
                let check = try conn.fetchValue("PRAGMA integrity_check")
                let rows = try conn.fetchAll("SELECT tag, n FROM row WHERE tag LIKE ?", [.text(prefix)])
                return (check?.description ?? "", Set(rows.map { "\($0.values[0].description)#\($0.values[1].description)" }))
            }
            await reopened.close()
            #expect(integrity == "ok")
            let missing = ledger.acknowledged.subtracting(stored)
            #expect(missing.isEmpty, "cycle \(cycles): \(missing.count) acknowledged writes are missing, e.g. \(missing.prefix(3))")
            let counts = ledger.counts
            totals.calls += counts.calls
            totals.closedOrCancelled += counts.closedOrCancelled
            totals.acknowledged += ledger.acknowledged.count
            longestCycle = max(longestCycle, ContinuousClock.now - cycleStarted)
            // At least two cycles, however slow the machine: the second opens what the first's close left.
        } while ContinuousClock.now < deadline || cycles < 2
        func inSeconds(_ duration: Duration) -> String { String(format: "%.1f s", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18) }
        print(
            "concurrency soak: \(cycles) cycles in \(inSeconds(ContinuousClock.now - started)) (longest \(inSeconds(longestCycle))), "
                + "\(totals.calls) calls, \(totals.acknowledged) writes acknowledged, \(totals.closedOrCancelled) ended by the close or a cancellation")
    }

    /// Runs the tasks until the database closes under them; false when some did not end in time.
    static func storm(_ database: DatabaseActor, ledger: Ledger, cycle: Int, closeAfter: Duration) async -> [String] {
        let running = Lock<Set<String>>([])
        let tasks: [(String, @Sendable () async -> Void)] = [
            ("writer 0", { await writes(database, ledger: ledger, tag: "cycle\(cycle)-w0") }),
            ("writer 1", { await writes(database, ledger: ledger, tag: "cycle\(cycle)-w1") }),
            ("writer 2", { await writes(database, ledger: ledger, tag: "cycle\(cycle)-w2") }),
            ("cancelled writer", { await cancelledWrites(database, ledger: ledger, tag: "cycle\(cycle)-c") }),
            ("reader 0", { await reads(database, ledger: ledger) }),
            ("reader 1", { await reads(database, ledger: ledger) }),
            ("live query 0", { await liveQueries(database, ledger: ledger) }),
            ("live query 1", { await liveQueries(database, ledger: ledger) }),
            ("change feed", { await feedReads(database, ledger: ledger) }),
            ("external checks", { await externalChecks(database, ledger: ledger) }),
            ("closer", {
                try? await Task.sleep(for: closeAfter)
                await database.close()
                ledger.returned()
            }),
        ]
        running.withLock { $0 = Set(tasks.map(\.0)) }
        let group = Task {
            await withTaskGroup(of: Void.self) { group in
                for (name, body) in tasks {
                    group.addTask {
                        await body()
                        _ = running.withLock { $0.remove(name) }
                    }
                }
            }
        }
        // A minute (or more, scaled) after the close, every task must have ended: a write may wait out
        // its 20 s busy timeout behind the neighbour process before the close can finish, and a loaded
        // machine stretches that, so the deadline only tells a hang.
        let limit = ContinuousClock.now + closeAfter + .seconds(hangDeadline(seconds: 60))
        while !running.withLock({ $0.isEmpty }), ContinuousClock.now < limit { try? await Task.sleep(for: .milliseconds(10)) }
        let stuck = running.withLock { $0 }.sorted()
        if !stuck.isEmpty { group.cancel() }
        return stuck
    }

    /// Between two calls a task pauses a little: the soak is after interleavings, not throughput, and
    /// must not starve the suites running beside it of the cooperative pool's few threads.
    static func pause() async { try? await Task.sleep(for: .microseconds(Int.random(in: 200...1_000))) }

    static func writes(_ database: DatabaseActor, ledger: Ledger, tag: String) async {
        var n = 0
        while true {
            await pause()
            n += 1
            do {
                try await database.write { [n] conn in
                    try conn.execute("INSERT INTO row(tag, n) VALUES (?, ?)", [.text(tag), .integer(Int64(n))])
                }
                ledger.acknowledge(tag, n)
            } catch {
                if ledger.threw(error, in: "write") { return }
            }
        }
    }

    /// Writes that are cancelled at a random moment: each either commits (and is acknowledged) or
    /// throws `cancelled` and leaves nothing.
    static func cancelledWrites(_ database: DatabaseActor, ledger: Ledger, tag: String) async {
        var n = 0
        while true {
            n += 1
            let attempt = Task { [n] in
                try await database.write { conn in
                    try conn.execute("INSERT INTO row(tag, n) VALUES (?, ?)", [.text(tag), .integer(Int64(n))])
                    try conn.execute("INSERT INTO row(tag, n) VALUES (?, ?)", [.text(tag + "-second"), .integer(Int64(n))])
                }
            }
            try? await Task.sleep(for: .microseconds(Int.random(in: 0...400)))
            attempt.cancel()
            do {
                try await attempt.value
                ledger.acknowledge(tag, n)
                ledger.acknowledge(tag + "-second", n)
            } catch {
                if ledger.threw(error, in: "cancelled write") { return }
            }
        }
    }

    static func reads(_ database: DatabaseActor, ledger: Ledger) async {
        while true {
            await pause()
            do {
                _ = try await database.read { conn in try conn.fetchAll("SELECT tag, n FROM row ORDER BY id DESC LIMIT 50") }
                ledger.returned()
            } catch {
                if ledger.threw(error, in: "read") { return }
            }
        }
    }

    /// Opens a live query, takes one to three values, drops it; again.
    static func liveQueries(_ database: DatabaseActor, ledger: Ledger) async {
        while true {
            await pause()
            let wanted = Int.random(in: 1...3)
            do {
                var seen = 0
                for try await _ in database.observe(Row.all.order { $0.id.desc() }.limit(5)) {
                    seen += 1
                    if seen >= wanted { break }
                }
                ledger.returned()
                // The sequence ended without an error only when the database closed under it.
                if seen < wanted { return }
            } catch {
                if ledger.threw(error, in: "live query") { return }
            }
        }
    }

    static func feedReads(_ database: DatabaseActor, ledger: Ledger) async {
        while true {
            await pause()
            do {
                let start = try await database.currentToken()
                var seen = 0
                for try await _ in database.changes(since: start) {
                    seen += 1
                    if seen >= 3 { break }
                }
                ledger.returned()
                if seen < 3 { return }
            } catch {
                if ledger.threw(error, in: "change feed") { return }
            }
        }
    }

    static func externalChecks(_ database: DatabaseActor, ledger: Ledger) async {
        while true {
            do {
                _ = try await database.checkForExternalChanges()
                ledger.returned()
                try await Task.sleep(for: .milliseconds(2))
            } catch {
                if ledger.threw(error, in: "checkForExternalChanges") { return }
            }
        }
    }
}
