@testable import BoutiqueDB
import Foundation
import Synchronization
import Testing

/// The write-transaction extension point change capture plugs into.
@Suite struct TransactionObserverTests {
    /// Records what it hears and writes a log row just before each commit, as change capture will.
    final class Recorder: WriteTransactionObserver, Sendable {
        let events = Lock<[String]>([])
        let failCommit = Atomic<Bool>(false)

        struct Refused: Error, Equatable {}

        func didDetectExternalChanges(_ connection: Connection) { record("external") }
        func didBegin(_ connection: Connection) throws { record("begin") }
        func willCommit(_ connection: Connection) throws {
            record("willCommit")
            if failCommit.load(ordering: .relaxed) { throw Refused() }
            try connection.execute("CREATE TABLE IF NOT EXISTS change_log(n INTEGER)")
            try connection.execute("INSERT INTO change_log VALUES (1)")
        }
        func didCommit(_ connection: Connection) { record("commit") }
        func didRollback(_ connection: Connection) { record("rollback") }
        func didWriteOutsideTransaction(_ connection: Connection) { record("outside") }

        private func record(_ event: String) { events.withLock { $0.append(event) } }
        func take() -> [String] { events.withLock { events in defer { events.removeAll() }; return events } }
    }

    @Test func observersJoinEveryWriteTransaction() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: CounterMigrations.plan)
        let recorder = Recorder()
        await database.addTransactionObserver(recorder)

        try await database.write { conn in try conn.execute("INSERT INTO counter(label) VALUES ('a')") }
        #expect(recorder.take() == ["begin", "willCommit", "commit"])
        #expect(try await database.read { conn in try conn.count("change_log") } == 1, "written in the same transaction")

        await #expect(throws: BoutiqueError.self) {
            try await database.write { conn in try conn.execute("INSERT INTO nowhere VALUES (1)") }
        }
        #expect(recorder.take() == ["begin", "rollback"])

        recorder.failCommit.store(true, ordering: .relaxed)
        await #expect(throws: Recorder.Refused()) {
            try await database.write { conn in try conn.execute("INSERT INTO counter(label) VALUES ('b')") }
        }
        #expect(recorder.take() == ["begin", "willCommit", "rollback"])
        #expect(try await database.read { conn in try conn.count("counter") } == 1, "the refused commit rolled back")
        recorder.failCommit.store(false, ordering: .relaxed)

        try await database.writeWithoutTransaction { conn in try conn.execute("VACUUM") }
        #expect(recorder.take() == ["outside"])
        await database.close()
    }

    @Test func multiProcessWritesNoticeCommitsFromOtherProcesses() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("observed.db")
        let database = try await DatabaseActor.open(
            url: url, migrations: SharedRowMigrations.plan, options: .init(multiProcess: true))
        let recorder = Recorder()
        await database.addTransactionObserver(recorder)
        try await database.write { conn in try conn.execute("INSERT INTO row(tag, n) VALUES ('own', 0)") }
        #expect(recorder.take() == ["begin", "willCommit", "commit"])

        let outcome = try await withTimeout(20) { try await Worker.run(["insert", url.path, "1", "other"]) }
        #expect(outcome.succeeded, "\(outcome)")
        try await database.write { conn in try conn.execute("INSERT INTO row(tag, n) VALUES ('own', 1)") }
        #expect(recorder.take() == ["external", "begin", "willCommit", "commit"])

        #expect(try await Worker.run(["insert", url.path, "1", "other"]).succeeded)
        #expect(try await database.checkForExternalChanges())
        #expect(recorder.take() == ["external"])
        await database.close()
    }
}
