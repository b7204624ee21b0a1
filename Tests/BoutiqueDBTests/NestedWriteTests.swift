import BoutiqueDB
import Foundation
import Testing

/// A write started from inside a write on the same database fails at once instead of deadlocking.
@Suite struct NestedWriteTests {
    /// Runs `inner` from a task created inside a write, waits for it there, and returns its error.
    private func errorOfWriteStartedInside(
        _ database: DatabaseActor, _ inner: @escaping @Sendable () async throws -> Void
    ) async throws -> BoutiqueError? {
        try await withTimeout(120) {
            try await database.write { _ -> BoutiqueError? in
                let outcome = Box<BoutiqueError?>(nil)
                let finished = Latch()
                Task {
                    do { try await inner() } catch let error as BoutiqueError { outcome.value = error } catch {}
                    finished.open()
                }
                // Waiting here is what would deadlock if the inner write queued behind this one. A
                // minute: a sanitized run's task started over 5 s late.
                guard finished.waitBlocking(seconds: 60) else { return .invalidArgument("the inner write hung") }
                return outcome.value
            }
        }
    }

    @Test func aWriteInsideAWriteThrowsTransactionInProgress() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: CounterMigrations.plan)
        let error = try await errorOfWriteStartedInside(database) {
            try await database.write { conn in try conn.execute("INSERT INTO counter(label) VALUES ('inner')") }
        }
        #expect(error == .transactionInProgress)
        let rawError = try await errorOfWriteStartedInside(database) {
            try await database.writeWithoutTransaction { _ in }
        }
        #expect(rawError == .transactionInProgress)
        #expect(try await database.read { conn in try conn.count("counter") } == 0)
        await database.close()
    }

    @MainActor
    @Test func theFacadeRefusesANestedWriteToo() async throws {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: CounterMigrations.plan)
        let error = try await errorOfWriteStartedInside(db.databaseActor) {
            try await db.write { _ in }
        }
        #expect(error == .transactionInProgress)
        await db.close()
    }

    @Test func readsAndOtherDatabasesAreAllowedInsideAWrite() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: CounterMigrations.plan)
        let other = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: CounterMigrations.plan)
        let error = try await errorOfWriteStartedInside(database) {
            _ = try await database.read { conn in try conn.count("counter") }
            try await other.write { conn in try conn.execute("INSERT INTO counter(label) VALUES ('other')") }
        }
        #expect(error == nil)
        #expect(try await other.read { conn in try conn.count("counter") } == 1)
        await database.close()
        await other.close()
    }

    /// A task created inside a write may write once that write has ended.
    @Test func aTaskCreatedInsideAWriteMayWriteAfterItEnds() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: CounterMigrations.plan)
        let outerDone = Latch()
        let later = try await database.write { _ in
            Task { () async throws -> Void in
                _ = await outerDone.wait(seconds: 5)
                try await database.write { conn in try conn.execute("INSERT INTO counter(label) VALUES ('later')") }
            }
        }
        outerDone.open()
        try await withTimeout(10) { try await later.value }
        #expect(try await database.read { conn in try conn.count("counter") } == 1)
        await database.close()
    }
}
