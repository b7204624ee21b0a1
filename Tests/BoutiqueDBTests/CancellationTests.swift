import BoutiqueDB
import Foundation
import Testing

/// Cancelling the task of a write rolls it back and leaves the database usable.
@Suite struct CancellationTests {
    @Test func cancellingARunningStatementRollsBack() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: CounterMigrations.plan)
        let started = Latch()
        let write = Task {
            try await database.write { conn in
                try conn.execute("INSERT INTO counter(label) VALUES ('doomed')")
                started.open()
                // Never ends on its own: only the interrupt that cancellation sends stops it.
                _ = try conn.fetchValue(
                    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c")
            }
        }
        #expect(await started.wait(seconds: 5))
        try await Task.sleep(for: .milliseconds(30))
        write.cancel()
        let outcome = try await withTimeout(10) { await write.result }
        #expect(throws: BoutiqueError.cancelled) { try outcome.get() }
        try await assertUsable(database)
    }

    @Test func cancellingWhileTheClosureRunsSwiftCodeRollsBack() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: CounterMigrations.plan)
        let started = Latch()
        let cancelled = Latch()
        let write = Task {
            try await database.write { conn in
                try conn.execute("INSERT INTO counter(label) VALUES ('doomed')")
                started.open()
                // Swift code still running when the cancel arrives, however slow the machine is.
                _ = cancelled.waitBlocking(seconds: 5)
            }
        }
        #expect(await started.wait(seconds: 5))
        write.cancel()
        cancelled.open()
        await #expect(throws: BoutiqueError.cancelled) { try await write.value }
        try await assertUsable(database)
    }

    @Test func aWriteInACancelledTaskDoesNotStart() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: CounterMigrations.plan)
        let ran = Box(false)
        let write = Task {
            try? await Task.sleep(for: .seconds(10))  // ends early when cancelled
            try await database.write { conn in
                ran.value = true
                try conn.execute("INSERT INTO counter(label) VALUES ('never')")
            }
        }
        write.cancel()
        await #expect(throws: BoutiqueError.cancelled) { try await write.value }
        #expect(ran.value == false)
        try await assertUsable(database)
    }

    /// The database is empty, and a new write commits.
    private func assertUsable(_ database: DatabaseActor) async throws {
        #expect(try await database.read { conn in try conn.count("counter") } == 0)
        try await database.write { conn in try conn.execute("INSERT INTO counter(label) VALUES ('kept')") }
        #expect(try await database.read { conn in try conn.count("counter") } == 1)
        await database.close()
    }
}
