import Testing

@testable import BoutiqueSQLite

/// Statement starts as a ``StatementStartObserver`` hears them, and what ``StatementProbe`` says of them.
@Suite("Connection: statement starts")
struct StatementStartTests {
    final class Recorder: StatementStartObserver {
        var started: [(statement: OpaquePointer, sql: String)] = []
        func statementStarted(_ statement: OpaquePointer, sql: UnsafePointer<CChar>) {
            started.append((statement, String(cString: sql)))
        }
    }

    @Test func everyStatementAndTriggerProgramIsReportedWhenItStarts() throws {
        let connection = try Connection.inMemory()
        try connection.execute("""
            CREATE TABLE t(x); CREATE TABLE audit(x);
            CREATE TRIGGER t_audit AFTER INSERT ON t BEGIN INSERT INTO audit VALUES (NEW.x); END
            """)
        let recorder = Recorder()
        try connection.setStatementStartObserver(recorder)
        let insert = try connection.prepare("INSERT INTO t VALUES (?)")
        try insert.bind(1, at: 1)
        try insert.run()
        try connection.execute("SELECT count(*) FROM audit")
        #expect(recorder.started.map(\.sql) == [
            "INSERT INTO t VALUES (?)", "-- TRIGGER t_audit", "-- INSERT INTO audit VALUES (NEW.x)", "SELECT count(*) FROM audit",
        ])
        #expect(recorder.started.first?.statement == insert.handle)

        try connection.setStatementStartObserver(nil)
        try connection.execute("SELECT 1")
        #expect(recorder.started.count == 4)
    }

    @Test func theConnectionKeepsTheObserverUntilItCloses() throws {
        let connection = try Connection.inMemory()
        weak var observer: Recorder?
        do {
            let recorder = Recorder()
            observer = recorder
            try connection.setStatementStartObserver(recorder)
        }
        try connection.execute("SELECT 1")
        #expect(observer?.started.map(\.sql) == ["SELECT 1"])
        connection.close()
        #expect(observer == nil)
    }

    @Test func theProbeTellsAFailedStatementFromARunningOne() throws {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE t(x UNIQUE)")
        let probe = try StatementProbe(connection)
        let start = probe.totalChanges

        // Two rows, the second of which fails: SQLite undoes the first and counts nothing.
        #expect(throws: SQLiteError.self) { try connection.execute("INSERT INTO t VALUES (1), (1)") }
        #expect(probe.totalChanges == start)

        // A RETURNING statement has made its change after its first step and is still running.
        let returning = try connection.prepare("INSERT INTO t VALUES (2), (3) RETURNING x")
        #expect(try returning.step())
        #expect(probe.isRunning(returning.handle!))
        #expect(probe.isPrepared(returning.handle!))
        #expect(probe.sql(of: returning.handle!) == "INSERT INTO t VALUES (2), (3) RETURNING x")
        while try returning.step() {}
        try returning.reset()
        #expect(!probe.isRunning(returning.handle!))
        #expect(probe.totalChanges == start + 2)

        let handle = returning.handle!
        returning.finalize()
        #expect(!probe.isPrepared(handle))
    }
}
