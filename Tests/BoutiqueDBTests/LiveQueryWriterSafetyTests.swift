@testable import BoutiqueDB
import Foundation
import Testing

/// What a live query refreshed on the writer connection must not do: see another schema than a
/// reader's, run a pragma there, be tried there again after the writer refused it; and what an
/// observation owes its receivers whatever thread fetched for it.
@Suite struct LiveQueryWriterSafetyTests {
    private typealias TextQuery = LiveQueryInlineFetchTests.TextQuery

    private func open(_ directory: TemporaryDirectory) async throws -> DatabaseActor {
        // Quick queries go to the writer whatever the machine's load: what these tests guard happens there.
        try await DatabaseActor.open(url: directory.file("safety.db"), migrations: LiveQueryMigrations.plan, options: .unhurriedLiveQueries)
    }

    /// A `TEMP` table the app made on the writer hides the main table of the same name from an
    /// unqualified query there: refreshed on the writer, the count would read the empty temporary table.
    @Test func aTemporaryTableOnTheWriterDoesNotHideTheMainOneFromALiveQuery() async throws {
        let directory = try TemporaryDirectory()
        let database = try await open(directory)
        try await database.writeWithoutTransaction { conn in
            try conn.execute("CREATE TEMP TABLE counter(id INTEGER PRIMARY KEY, label TEXT NOT NULL DEFAULT '')")
        }
        let counts = Lock<[Int]>([])
        let consumer = Task {
            for try await count in database.observeOne(TextQuery(text: "SELECT count(*) FROM counter")) {
                if case .integer(let value)? = count?.first { counts.withLock { $0.append(Int(value)) } }
            }
        }
        try await eventually("the first count") { counts.withLock { $0 } == [0] }
        for round in 1...5 {
            try await database.write { conn in try conn.execute("INSERT INTO main.counter(label) VALUES ('x')") }
            try await eventually("count \(round)") { counts.withLock { $0 }.last == round }
        }
        let seen = counts.withLock { $0 }
        #expect(seen == seen.sorted(), "a refresh read the temporary table: \(seen)")
        consumer.cancel()
        await database.close()
    }

    /// `pragma_optimize` runs `PRAGMA optimize`, which may write statistics: on a reader `query_only`
    /// stops it, on the writer nothing would, and the capture would not log the write.
    @Test func aLiveQueryReadingAPragmaFunctionNeverRunsItOnTheWriter() async throws {
        let directory = try TemporaryDirectory()
        let database = try await open(directory)
        try await database.write { conn in try conn.execute("CREATE INDEX counter_label ON counter(label)") }
        let seen = Lock(0)
        let consumer = Task {
            for try await _ in database.observeOne(TextQuery(text: "SELECT count(*) FROM counter, pragma_optimize(2)")) {
                seen.withLock { $0 += 1 }
            }
        }
        try await eventually("the first value") { seen.withLock { $0 } >= 1 }
        for index in 0..<20 {
            try await database.write { conn in
                try conn.execute("INSERT INTO counter(label) VALUES (?)", [.text("\(index)")])
                try conn.execute("UPDATE counter SET label = label || '!' WHERE label = ?", [.text("\(index)")])
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        let statistics = try await database.read { conn in
            try conn.connection.fetchValue("SELECT count(*) FROM sqlite_schema WHERE name = 'sqlite_stat1'")
        }
        #expect(statistics == .integer(0), "PRAGMA optimize ran on the writer")
        consumer.cancel()
        await database.close()
    }

    /// A fetch the writer refused is not tried there again (it would fail each commit and take budget
    /// from others); one the budget stopped is (its query may be quick again).
    @MainActor
    @Test func aQueryTheWriterRefusedGoesToReadersFromThenOn() async throws {
        for stoppedByTheBudget in [false, true] {
            let directory = try TemporaryDirectory()
            let database = try await open(directory)
            let attempts = Lock<[Bool]>([])  // per fetch: whether it ran on the writer
            let delivered = Lock<[Int]>([])
            let source = Lock(0)
            let observation = QueryObservation<Int>(database: database) { _, site in
                attempts.withLock { $0.append(site == .writer) }
                if site == .writer, attempts.withLock({ $0.filter { $0 }.count }) == 1 {
                    throw stoppedByTheBudget ? SQLiteError(.interrupt, message: "interrupted") : SQLiteError(.error, message: "no such table")
                }
                return (source.withLock { $0 }, ReadRegion(tables: ["counter"]))
            }
            observation.start { result in
                if case .success(let value) = result { delivered.withLock { $0.append(value) } }
                return .taken
            }
            try await eventually("the first fetch") { delivered.withLock { $0 } == [0] && observation.isIdle }
            for round in 1...4 {
                try await database.write { conn in
                    try conn.execute("INSERT INTO counter(label) VALUES ('x')")
                    source.withLock { $0 = round }
                }
                try await eventually("round \(round)") { delivered.withLock { $0 }.last == round && observation.isIdle }
            }
            let onWriter = attempts.withLock { $0 }.filter { $0 }.count
            if stoppedByTheBudget {
                #expect(onWriter >= 2, "a query the budget stopped was not tried on the writer again: \(attempts.withLock { $0 })")
            } else {
                #expect(onWriter == 1, "a query the writer refused was tried there again: \(attempts.withLock { $0 })")
            }
            observation.cancel()
            await database.close()
        }
    }

    /// Each iteration of the same results observes on its own: a second one gets the current value
    /// at once, and both get every change.
    @Test func theSameResultsIteratedTwiceServeBothIterations() async throws {
        let directory = try TemporaryDirectory()
        let database = try await open(directory)
        let results = database.observeOne(TextQuery(text: "SELECT count(*) FROM counter"))
        var first = results.makeAsyncIterator()
        #expect(try await first.next()??.first == .integer(0))
        let second = Task {
            var iterator = results.makeAsyncIterator()
            return try await iterator.next()??.first
        }
        let secondValue = try await withTimeout(5) { try await second.value }
        #expect(secondValue == .integer(0), "the second iteration got no current value")
        try await database.write { conn in try conn.execute("INSERT INTO counter(label) VALUES ('x')") }
        #expect(try await first.next()??.first == .integer(1))
        second.cancel()
        await database.close()
    }

    /// A result already on its way to the main actor when the app stops the live query is dropped.
    @MainActor
    @Test func aStoppedLiveQueryTakesNoResultThatWasOnItsWay() async throws {
        let directory = try TemporaryDirectory()
        let db = try await BoutiqueDB.open(url: directory.file("stopped.db"), migrations: LiveQueryMigrations.plan)
        let model = NoteListModel(db)
        try await eventually("the first fetch") { !model.$notes.isLoading }
        let written = Lock(false)
        Task.detached {
            try await db.write { conn in
                try conn.execute("INSERT INTO note(id, title, body, updatedAt) VALUES (?, 'A', '', 1)", [.text(UUID().uuidString)])
            }
            written.withLock { $0 = true }
        }
        // The main actor stays busy while the write commits and its result is fetched and posted.
        block { written.withLock { $0 } && model.$notes.fetchCount == 2 }
        // A little longer, still blocking, so that the result is surely posted.
        let posted = Date().addingTimeInterval(0.05)
        block { Date() > posted }
        model.$notes.stop()
        try await Task.sleep(for: .milliseconds(100))
        #expect(model.notes.isEmpty, "a result applied after stop()")
        await db.close()
    }
}
