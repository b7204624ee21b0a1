@testable import BoutiqueDB
import Foundation
import Testing

/// Where a live query's refresh runs: a quick query's on the committing thread, right after the
/// commit; a slow one's, and any beyond the commit's budget, on a reader's queue.
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

    private func open(_ directory: TemporaryDirectory) async throws -> DatabaseActor {
        try await DatabaseActor.open(url: directory.file("inline.db"), migrations: LiveQueryMigrations.plan)
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
        let database = try await open(directory)
        let probe = Probe()
        let observation = probe.observe(database)
        try await eventually("first fetch") { probe.delivered == [0] }
        #expect(probe.fetchedOnWriter == [false], "the first fetch finds the query's tables, on a reader")
        var deliveredBeforeTheWriteReturned = 0
        for round in 1...5 {
            try await insert(database, bumping: [probe])
            if probe.delivered.last == round { deliveredBeforeTheWriteReturned += 1 }
        }
        // A refresh that went to a reader may fold into the next commit's: values only move forward.
        try await eventually("the last refresh") { probe.delivered.last == 5 }
        #expect(probe.delivered == probe.delivered.sorted() && Set(probe.delivered).count == probe.delivered.count)
        // A refresh goes to a reader only when the fetch before it was preempted for 100 µs.
        let onWriter = probe.fetchedOnWriter.dropFirst().filter { $0 }.count
        #expect(onWriter >= 3, "refreshes on the writer's thread: \(probe.fetchedOnWriter)")
        #expect(deliveredBeforeTheWriteReturned >= onWriter)
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

    @Test func theBudgetRefusesSlowQueriesAndStopsAtItsLimit() {
        let budget = InlineFetchBudget()
        #expect(!budget.spend(.microseconds(150)), "slower than the limit for one query")
        #expect(budget.spend(.microseconds(90)))
        #expect(budget.spend(.microseconds(90)))
        #expect(!budget.spend(.microseconds(90)), "past the commit's 250 µs")
        #expect(budget.spend(.microseconds(70)), "what is left still serves a quicker query")
        #expect(!budget.spend(.microseconds(1)))
        budget.renew()
        #expect(budget.spend(.microseconds(90)), "renewed for the next commit")
    }
}

private extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
