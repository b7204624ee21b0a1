@testable import BoutiqueDB
import Foundation
import Testing

/// No SQLite work happens on the main thread, even when the caller is on the main actor. One test at
/// a time: one of them keeps the main actor busy on purpose, which another's main-actor task would
/// wait behind.
@Suite(.serialized) struct ThreadingTests {
    @MainActor
    @Test func closuresNeverRunOnTheMainThread() async throws {
        // Where the test runner binds the main actor to the main thread (Apple platforms), check that
        // the premise holds; the Linux runner drains the main actor elsewhere.
        #if canImport(Darwin)
        #expect(Thread.isMainThread)
        #endif
        let migrationPlace = Box<Place?>(nil)
        let plan = BoutiqueMigrationPlan {
            BoutiqueMigration("v1") { conn in
                migrationPlace.value = Place.current
                try conn.execute("CREATE TABLE t(x)")
            }
        }
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: plan)
        let write = try await db.write { _ in Place.current }
        let read = try await db.read { _ in Place.current }
        let raw = try await db.writeWithoutTransaction { _ in Place.current }
        let expected = Place(onMainThread: false, onDatabaseQueue: true)
        #expect(migrationPlace.value == expected)
        #expect(write == expected)
        #expect(read == expected)
        #expect(raw == expected)
        await db.close()
    }

    /// The main actor stays free while a write blocks: a main-actor task runs during a long write.
    /// The write holds until that task has run, however long the main actor's other work (other
    /// suites' main-actor tests, on a loaded machine) makes it wait: a loaded run once took more than
    /// a minute. Only a main actor the write really blocked would keep it the whole ten minutes.
    @MainActor
    @Test func mainActorStaysResponsiveDuringALongWrite() async throws {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: CounterMigrations.plan)
        let release = Latch()
        let started = Latch()
        let write = Task { @MainActor in
            try await db.write { _ in
                started.open()
                return release.waitBlocking(seconds: 600)
            }
        }
        #expect(await started.wait(seconds: 5))
        let mainActorTicked = await Task { @MainActor in true }.value
        #expect(mainActorTicked)
        release.open()
        #expect(try await write.value)
        await db.close()
    }
}

extension ThreadingTests {
    /// A read gives its reader back when it ends, on the reader's queue: a busy main actor, to which
    /// the read's caller returns, does not hold the reader from the next read.
    @MainActor
    @Test func aBusyMainActorDoesNotHoldItsReadersReader() async throws {
        let db = try await BoutiqueDB.open(
            url: BoutiqueDB.inMemoryURL(), migrations: CounterMigrations.plan, options: .init(readerCount: 1))
        let started = Latch()
        let hold = Latch()
        let mainIsBusy = Latch()
        let secondDone = Latch()
        let first = Task { @MainActor in
            try await db.read { _ in
                started.open()
                _ = hold.waitBlocking(seconds: 10)
            }
        }
        #expect(await started.wait(seconds: 5))
        // Once the main actor is busy, the first read ends (its caller cannot resume yet) and a second
        // read, which needs the pool's only reader, runs from elsewhere.
        let second = Task.detached {
            _ = await mainIsBusy.wait(seconds: 10)
            hold.open()
            _ = try await db.read { _ in 2 }
            secondDone.open()
        }
        mainIsBusy.open()
        let secondRanWhileTheMainActorWasBusy = secondDone.waitBlocking(seconds: 5)
        hold.open()
        try await first.value
        try await second.value
        #expect(secondRanWhileTheMainActorWasBusy)
        await db.close()
    }
}

/// Where a closure ran.
struct Place: Equatable, Sendable {
    /// On the main thread.
    var onMainThread: Bool
    /// On one of the database's own queues or threads, not on the main actor or the cooperative pool.
    var onDatabaseQueue: Bool

    static var current: Place {
        Place(onMainThread: Thread.isMainThread, onDatabaseQueue: QueueExecutor.isOnDatabaseQueue || ThreadExecutor.isOnExecutorThread)
    }
}
