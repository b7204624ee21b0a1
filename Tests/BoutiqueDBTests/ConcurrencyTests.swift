import BoutiqueDB
import Foundation
import Synchronization
import Testing

/// Reads run beside writes and see one snapshot each.
@Suite struct ConcurrencyTests {
    static let locations: [String] = ["file", "inMemory"]

    private func open(_ location: String, readerCount: Int = 4) async throws -> (DatabaseActor, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let url = location == "file" ? directory.file("concurrency.db") : BoutiqueDB.inMemoryURL()
        let database = try await DatabaseActor.open(
            url: url, migrations: CounterMigrations.plan, options: .init(readerCount: readerCount))
        return (database, directory)
    }

    @Test(arguments: locations)
    func aLongWriteDoesNotBlockReads(location: String) async throws {
        let (database, directory) = try await open(location)
        let writeIsOpen = Latch()
        let readsFinished = Latch()
        let write = Task {
            try await database.write { conn in
                try conn.execute("INSERT INTO counter(label) VALUES ('uncommitted')")
                writeIsOpen.open()
                // Holds the transaction open until the test has its reads or gave up on them (which
                // opens the latch too): reads that waited for the write would time out below. The
                // bound is only for a test that never gets that far; it is long because the test's
                // own task may wait for a thread that long on a loaded machine.
                return readsFinished.waitBlocking(seconds: 60)
            }
        }
        defer { readsFinished.open() }
        #expect(await writeIsOpen.wait(seconds: 5))
        let counts = try await withTimeout(5) {
            try await withThrowingTaskGroup(of: Int64.self) { group in
                for _ in 0..<3 { group.addTask { try await database.read { conn in try conn.count("counter") } } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        readsFinished.open()
        #expect(counts == [0, 0, 0], "reads must not see the uncommitted row")
        #expect(try await write.value, "the reads finished while the write was still open")
        #expect(try await database.read { conn in try conn.count("counter") } == 1)
        await database.close()
        _ = directory
    }

    @Test(arguments: locations)
    func aReadSeesOneSnapshotWhileAWriteCommits(location: String) async throws {
        let (database, directory) = try await open(location)
        try await database.write { conn in try conn.execute("INSERT INTO counter(label) VALUES ('a')") }
        let firstReadDone = Latch()
        let committed = Latch()
        let read = Task {
            try await database.read { conn -> [Int64] in
                let before = try conn.count("counter")
                firstReadDone.open()
                guard committed.waitBlocking(seconds: 10) else { return [] }
                let after = try conn.count("counter")
                return [before, after]
            }
        }
        #expect(await firstReadDone.wait(seconds: 5))
        try await database.write { conn in
            for _ in 0..<5 { try conn.execute("INSERT INTO counter(label) VALUES ('b')") }
        }
        committed.open()
        #expect(try await read.value == [1, 1])
        #expect(try await database.read { conn in try conn.count("counter") } == 6)
        await database.close()
        _ = directory
    }

    /// The snapshot is taken when `read` starts, not at the closure's first statement.
    @Test(arguments: locations)
    func theSnapshotStartsWhenTheReadStarts(location: String) async throws {
        let (database, directory) = try await open(location)
        let readStarted = Latch()
        let committed = Latch()
        let read = Task {
            try await database.read { conn -> Int64 in
                readStarted.open()
                guard committed.waitBlocking(seconds: 10) else { return -1 }
                return try conn.count("counter")
            }
        }
        #expect(await readStarted.wait(seconds: 5))
        try await database.write { conn in try conn.execute("INSERT INTO counter(label) VALUES ('late')") }
        committed.open()
        #expect(try await read.value == 0)
        await database.close()
        _ = directory
    }

    /// Two readers run at once and a third waits. Each read holds its reader until two have been seen
    /// together (or a deadline passes), so the overlap does not depend on how quickly a loaded machine
    /// starts the second task; with a pool of one it never comes and the count stays at one.
    @Test func readsBeyondThePoolSizeWaitForAFreeReader() async throws {
        let (database, directory) = try await open("file", readerCount: 2)
        let running = Counter()
        let mostAtOnce = Counter()
        try await withTimeout(20) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await database.read { conn in
                            let now = running.add(1)
                            mostAtOnce.raise(to: now)
                            let deadline = Date().addingTimeInterval(hangDeadline(seconds: 2))
                            while mostAtOnce.value < 2, Date() < deadline {
                                Thread.sleep(forTimeInterval: 0.002)
                            }
                            Thread.sleep(forTimeInterval: 0.01)
                            running.add(-1)
                            _ = try conn.count("counter")
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        #expect(mostAtOnce.value == 2)
        await database.close()
        _ = directory
    }

    @Test func aReadWaitingForAReaderCanBeCancelled() async throws {
        let (database, directory) = try await open("file", readerCount: 1)
        let holding = Latch()
        let release = Latch()
        let first = Task {
            try await database.read { _ in
                holding.open()
                return release.waitBlocking(seconds: 10)
            }
        }
        #expect(await holding.wait(seconds: 5))
        let waiting = Task { try await database.read { _ in true } }
        try await Task.sleep(for: .milliseconds(50))
        waiting.cancel()
        await #expect(throws: BoutiqueError.cancelled) { try await waiting.value }
        release.open()
        #expect(try await first.value)
        #expect(try await database.read { _ in true })
        await database.close()
        _ = directory
    }

    @Test func readsCannotWrite() async throws {
        let (database, directory) = try await open("file")
        let error = await #expect(throws: BoutiqueError.self) {
            try await database.read { conn in try conn.execute("INSERT INTO counter(label) VALUES ('x')") }
        }
        #expect(error?.resultCode?.primary == .readOnly)
        await database.close()
        _ = directory
    }
}

/// A number changed from several threads.
final class Counter: Sendable {
    private let storage = Atomic<Int>(0)

    var value: Int { storage.load(ordering: .relaxed) }

    @discardableResult
    func add(_ amount: Int) -> Int { storage.add(amount, ordering: .relaxed).newValue }

    func raise(to candidate: Int) { storage.max(candidate, ordering: .relaxed) }
}
