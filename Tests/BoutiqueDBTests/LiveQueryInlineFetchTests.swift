@testable import BoutiqueDB
import Foundation
import Testing

/// Where a live query's refresh runs: a quick query's on the writer's thread and connection, right
/// after the commit; a slow one's, and any beyond the commit's budget, on a reader's queue.
@Suite struct LiveQueryInlineFetchTests {
    /// An observed "query" that reads no table (so that its time is the probe's own, under any
    /// sanitizer), records where each fetch ran and what the receiver got.
    final class Probe: Sendable {
        private struct State {
            var source = 0
            var fetchedOnWriter: [Bool] = []
            var delivered: [Int] = []
        }
        private let state = Lock(State())
        /// How long each fetch keeps its thread busy.
        private let busy: Duration
        /// What each fetch does instead of spinning (sleeps, for a query slow for certain).
        private let sleeps: Bool

        init(busy: Duration = .zero, sleeps: Bool = false) {
            self.busy = busy
            self.sleeps = sleeps
        }

        func observe(_ database: DatabaseActor) -> QueryObservation<Int> {
            let observation = QueryObservation<Int>(database: database) { [self] _, _ in
                (fetch(), ReadRegion(tables: ["counter"]))
            }
            observation.start { [self] result in
                if case .success(let value) = result { state.withLock { $0.delivered.append(value) } }
                return .taken
            }
            return observation
        }

        private func fetch() -> Int {
            if sleeps {
                Thread.sleep(forTimeInterval: busy.seconds)
            } else if busy > .zero {
                let clock = ContinuousClock()
                let end = clock.now + busy
                while clock.now < end {}
            }
            return state.withLock { state in
                state.fetchedOnWriter.append(ThreadExecutor.isOnExecutorThread)
                return state.source
            }
        }

        /// Called inside a write: the value the next fetch returns.
        func bump() { state.withLock { $0.source += 1 } }

        var fetchedOnWriter: [Bool] { state.withLock { $0.fetchedOnWriter } }
        var delivered: [Int] { state.withLock { $0.delivered } }
    }

    /// A database with `options`: the standard refresh limits by default, for the tests of what they
    /// send to a reader; ``DatabaseOptions/unhurriedLiveQueries`` for those that expect a quick query
    /// on the writer whatever else the machine is doing.
    private func open(_ directory: TemporaryDirectory, options: DatabaseOptions = .default) async throws -> DatabaseActor {
        try await DatabaseActor.open(url: directory.file("inline.db"), migrations: LiveQueryMigrations.plan, options: options)
    }

    private func insert(_ database: DatabaseActor, bumping probes: [Probe]) async throws {
        try await database.write { conn in
            try conn.execute("INSERT INTO counter(label) VALUES ('x')")
            for probe in probes { probe.bump() }
        }
    }

    @MainActor
    @Test func aQuickQueryIsRefreshedOnTheCommittingThreadBeforeTheWriteReturns() async throws {
        let directory = try TemporaryDirectory()
        let database = try await open(directory, options: .unhurriedLiveQueries)
        let probe = Probe()
        let observation = probe.observe(database)
        // Idle too, or the first commit could find the first fetch finishing and fold into it.
        try await eventually("first fetch") { probe.delivered == [0] && observation.isIdle }
        #expect(probe.fetchedOnWriter == [false], "the first fetch finds the query's tables, on a reader")
        var deliveredBeforeTheWriteReturned = 0
        for round in 1...5 {
            try await insert(database, bumping: [probe])
            if probe.delivered.last == round { deliveredBeforeTheWriteReturned += 1 }
        }
        #expect(probe.delivered == [0, 1, 2, 3, 4, 5])
        // Every refresh: the first fetch found the region, and each later one is far below the limit.
        #expect(probe.fetchedOnWriter == [false, true, true, true, true, true], "where each fetch ran")
        #expect(deliveredBeforeTheWriteReturned == 5)
        observation.cancel()
        await database.close()
    }

    @MainActor
    @Test func aSlowQueryIsRefreshedOnAReader() async throws {
        let directory = try TemporaryDirectory()
        let database = try await open(directory)
        let probe = Probe(busy: .milliseconds(2), sleeps: true)
        let observation = probe.observe(database)
        try await eventually("first fetch") { probe.delivered == [0] }
        for round in 1...3 {
            try await insert(database, bumping: [probe])
            try await eventually("refresh \(round)") { probe.delivered.last == round }
        }
        #expect(probe.delivered == [0, 1, 2, 3])
        #expect(probe.fetchedOnWriter == [false, false, false, false], "a 2 ms query never delays the writer")
        observation.cancel()
        await database.close()
    }

    @MainActor
    @Test func aCommitSpendsNoMoreThanItsBudgetOnRefreshes() async throws {
        let directory = try TemporaryDirectory()
        let database = try await open(directory)
        // 90 µs each: quick enough one by one, but three exceed the commit's 250 µs.
        let probes = (0..<4).map { _ in Probe(busy: .microseconds(90)) }
        let observations = probes.map { $0.observe(database) }
        try await eventually("first fetches") { probes.allSatisfy { $0.delivered == [0] } }
        for round in 1...3 {
            try await insert(database, bumping: probes)
            try await eventually("round \(round)") { probes.allSatisfy { $0.delivered.last == round } }
            let onWriter = probes.filter { $0.fetchedOnWriter.last == true }.count
            #expect(onWriter <= 2, "round \(round): \(onWriter) of 4 refreshes on the writer's thread")
        }
        for observation in observations { observation.cancel() }
        await database.close()
    }

    /// The same writes, with a live query refreshed on the writer connection after each and without:
    /// the change log must come out the same (the query's statements are not captured), and so must
    /// the values.
    @MainActor
    @Test func refreshesOnTheWriterConnectionLeaveTheChangeLogAsItWas() async throws {
        func run(observed: Bool) async throws -> (log: [LoggedChange], counts: [Int64], onWriter: Int) {
            let directory = try TemporaryDirectory()
            let database = try await open(directory, options: .unhurriedLiveQueries)
            let counts = Lock<[Int64]>([])
            let onWriter = Lock(0)
            let observation = QueryObservation<Int64>(database: database) { connection, _ in
                if ThreadExecutor.isOnExecutorThread { onWriter.withLock { $0 += 1 } }
                let count = try connection.fetchValue("SELECT count(*) FROM counter")
                return (count.flatMap { if case .integer(let n) = $0 { n } else { nil } }, ReadRegion(tables: ["counter"]))
            }
            if observed {
                observation.start { result in
                    if case .success(let count) = result { counts.withLock { $0.append(count) } }
                    return .taken
                }
                try await eventually("first fetch") { counts.withLock { $0 } == [0] && observation.isIdle }
            }
            let statements = [
                "INSERT INTO counter(id, label) VALUES (1, 'a')", "INSERT INTO counter(id, label) VALUES (2, 'b')",
                "UPDATE counter SET label = 'c' WHERE id = 1", "DELETE FROM counter WHERE id = 2",
                "INSERT INTO counter(id, label) VALUES (3, 'd')",
            ]
            for sql in statements {
                try await database.write { conn in try conn.execute(sql) }
            }
            if observed { try await eventually("the last count") { counts.withLock { $0 }.last == 2 } }
            observation.cancel()
            let log = try await database.loggedRowChanges().map { change -> LoggedChange in
                var change = change
                (change.id, change.transaction) = (0, 0)
                return change
            }
            await database.close()
            return (log, counts.withLock { $0 }, onWriter.withLock { $0 })
        }
        let plain = try await run(observed: false)
        let observed = try await run(observed: true)
        #expect(plain.log.count == 5)
        #expect(observed.log == plain.log)
        #expect(observed.counts == [0, 1, 2, 2, 1, 2], "a value after each write")
        #expect(observed.onWriter == 5, "refreshes on the writer connection")
    }

    /// A query given as SQL text, as `boutique watch` observes one.
    struct TextQuery: QueryStatement, Sendable {
        let text: String
        var query: QueryFragment { QueryFragment(text) }
        var rowSource: String { "query" }
        func decodeRow(_ decoder: inout RowDecoder) throws(BoutiqueError) -> [DatabaseValue] {
            do { return try decoder.statement.row() } catch { throw BoutiqueError(error) }
        }
    }

    /// The writer connection would run whatever a live query's statement asks for: a write, or a
    /// statement SQLite counts as read-only that changes the connection (a savepoint left open would
    /// make every later write fail; a flag PRAGMA acts while it is prepared). The fetcher refuses all
    /// of them there, as a reader's `query_only` and read transaction make them harmless.
    @Test(arguments: ["INSERT INTO note(id, title, body, updatedAt) VALUES ('x', 'sneaky', '', 0) RETURNING id",
                      "SAVEPOINT sneaky", "BEGIN", "PRAGMA foreign_keys = OFF", "ATTACH ':memory:' AS other",
                      "WITH x AS (SELECT 1) INSERT INTO note(id, title, body, updatedAt) SELECT 'y', 'sneaky', '', 0 FROM x RETURNING id",
                      "-- a comment\r\nPRAGMA foreign_keys = OFF /* \nSELECT */"])
    func aLiveQueryThatWouldChangeTheWriterIsRefusedThere(sql: String) throws {
        let connection = try Connection(path: ":memory:")
        defer { connection.close() }
        try connection.execute("CREATE TABLE note (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL, updatedAt REAL NOT NULL)")
        try connection.execute("PRAGMA foreign_keys = ON")
        let fetcher = QueryFetcher({ TextQuery(text: sql) }, limit: nil)
        #expect {
            _ = try fetcher.fetch(on: connection, at: .writer)
        } throws: { error in
            guard case .sql(let code, _) = error as? BoutiqueError else { return false }
            return code == .readOnly
        }
        #expect(try connection.fetchValue("SELECT count(*) FROM note") == .integer(0))
        #expect(connection.isAutocommit, "no transaction or savepoint left open")
        #expect(try connection.fetchValue("PRAGMA foreign_keys") == .integer(1))
        #expect(try connection.fetchValue("SELECT count(*) FROM pragma_database_list") == .integer(1), "nothing attached")
    }

    @Test func queriesAreToldFromOtherStatementsByTheirFirstWord() {
        for sql in ["SELECT 1", "  select * from note", "-- a comment\nWITH x AS (SELECT 1) SELECT * FROM x",
                    "/* c */ VALUES (1)", "\n\tSelect 1", "-- c\r\nSELECT 1"] {
            #expect(QueryFetcher<TextQuery>.isQuery(sql), "\(sql)")
        }
        for sql in ["SAVEPOINT a", "PRAGMA table_info(note)", "BEGIN", "", "/* unterminated SELECT", "EXPLAIN SELECT 1",
                    "INSERT INTO note DEFAULT VALUES", "-- SELECT", "-- c\r\nBEGIN /* \nSELECT */", "--\r\nSAVEPOINT a"] {
            #expect(!QueryFetcher<TextQuery>.isQuery(sql), "\(sql)")
        }
    }

    @Test func theBudgetRefusesSlowQueriesAndEndsWithTheCommitsTime() throws {
        // A budget far longer than a commit's, so that a preempted test thread cannot spend it.
        let refresh = CommitRefresh(limits: .init(perQuery: .microseconds(100), perCommit: .milliseconds(200)))
        let connection = try Connection(path: ":memory:")
        defer { connection.close() }
        refresh.begin(on: connection)
        #expect(refresh.lend(forQueryThatTook: .microseconds(150)) == nil, "slower than the limit for one query")
        #expect(refresh.lend(forQueryThatTook: .microseconds(90)) === connection)
        Thread.sleep(forTimeInterval: 0.25)
        #expect(refresh.lend(forQueryThatTook: .microseconds(1)) == nil, "the budget is spent, by the clock")
        refresh.end()
        #expect(refresh.lend(forQueryThatTook: .microseconds(1)) == nil, "the connection is lent only while the commit is announced")
        refresh.begin(on: connection)
        #expect(refresh.lend(forQueryThatTook: .microseconds(90)) === connection, "renewed for the next commit")
        refresh.end()
        // A commit's standard budget is 250 µs.
        let standard = CommitRefresh()
        standard.begin(on: connection)
        Thread.sleep(forTimeInterval: 0.001)
        #expect(standard.lend(forQueryThatTook: .microseconds(1)) == nil, "a commit's budget outlasted 1 ms")
        standard.end()
    }

    /// A query that was quick and is not any more (its table grew) is stopped once the commit's budget
    /// is spent, whatever one step of it costs, instead of holding the writer up.
    @Test func aFetchThatOutrunsTheBudgetIsStoppedAndTheConnectionIsLeftAsItWas() throws {
        // 250 ms, so that the test thread is sure to be lent the connection even on a loaded machine
        // (5 ms was once spent between begin and lend), and far less than the query takes.
        let refresh = CommitRefresh(limits: .init(perQuery: .microseconds(100), perCommit: .milliseconds(250)))
        let connection = try Connection(path: ":memory:")
        defer { connection.close() }
        let long = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 10000000) SELECT sum(x) FROM c"
        refresh.begin(on: connection)
        let lent = try #require(refresh.lend(forQueryThatTook: .microseconds(10)))
        // Interrupted: the whole query would have returned its sum.
        #expect {
            _ = try lent.fetchValue(long)
        } throws: { error in
            (error as? SQLiteError)?.code == .interrupt
        }
        refresh.end()
        // Taken back: nothing watches the clock any more.
        #expect(try connection.fetchValue(long) == .integer(50_000_005_000_000))
    }

    /// On the writer, an unqualified name finds a `TEMP` table before the main one, and an attached
    /// database adds names a reader does not have: the connection is not lent then.
    @Test func aWriterWithTemporaryObjectsOrAttachedDatabasesIsNotLent() throws {
        let refresh = CommitRefresh(limits: .init(perQuery: .microseconds(100), perCommit: .seconds(10)))
        let connection = try Connection(path: ":memory:")
        defer { connection.close() }
        func lent() -> Bool {
            refresh.begin(on: connection)
            defer { refresh.end() }
            return refresh.lend(forQueryThatTook: .microseconds(1)) != nil
        }
        #expect(lent())
        try connection.execute("CREATE TEMP TABLE counter(id INTEGER PRIMARY KEY)")
        #expect(!lent(), "a temporary table")
        try connection.execute("DROP TABLE temp.counter")
        #expect(lent())
        try connection.execute("CREATE TEMP VIEW recent AS SELECT 1")
        #expect(!lent(), "a temporary view")
        try connection.execute("DROP VIEW temp.recent")
        try connection.execute("ATTACH ':memory:' AS other")
        #expect(!lent(), "an attached database")
        try connection.execute("DETACH other")
        #expect(lent())
    }
}

private extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
