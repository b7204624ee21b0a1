import Testing

@testable import BoutiqueSQLite

/// Statement ends as a ``StatementEndObserver`` hears them, and what ``StatementProgress`` and
/// ``StatementProbe/lastStatementChanges`` say of a statement.
@Suite("Connection: statement ends")
struct StatementEndTests {
    final class Recorder: StatementEndObserver {
        var ended: [(statement: OpaquePointer, succeeded: Bool)] = []
        let connection: Connection?
        init(running connection: Connection? = nil) { self.connection = connection }
        func statementEnded(_ statement: OpaquePointer, succeeded: Bool) {
            ended.append((statement, succeeded))
            // The observer may use the connection; its own statements are not reported to it.
            _ = try? connection?.fetchValue("SELECT count(*) FROM t")
        }
    }

    @Test func everyWayAStatementEndsIsReportedOnceWithItsOutcome() throws {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE t(x UNIQUE)")
        let recorder = Recorder(running: connection)
        connection.reportStatementEnds(to: recorder)

        // The second statement fails.
        #expect(throws: SQLiteError.self) { try connection.execute("INSERT INTO t VALUES (1); INSERT INTO t VALUES (1)") }
        #expect(recorder.ended.map(\.succeeded) == [true, false])

        let insert = try connection.prepare("INSERT INTO t VALUES (?)")
        try insert.bind(2, at: 1)
        try insert.run()
        #expect(recorder.ended.last?.statement == insert.handle && recorder.ended.last?.succeeded == true)

        // A RETURNING statement reset before its rows are read ends there, keeping its change.
        let returning = try connection.prepare("INSERT INTO t VALUES (3), (4) RETURNING x")
        #expect(try returning.step())
        try returning.reset()
        #expect(recorder.ended.count == 4 && recorder.ended.last?.succeeded == true)

        // A step that fails: reported as failed, and the error is the statement's own.
        let failing = try connection.prepare("INSERT INTO t VALUES (1)")
        #expect { try failing.step() } throws: { ($0 as? SQLiteError)?.extendedCode == .constraintUnique }
        #expect(recorder.ended.count == 5 && recorder.ended.last?.succeeded == false)

        connection.reportStatementEnds(to: nil)
        try connection.execute("SELECT 1")
        #expect(recorder.ended.count == 5)
    }

    @Test func aFailedStatementReportsNoChangesUnlessItsConflictClauseKeptThem() throws {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE t(x UNIQUE)")
        let probe = try StatementProbe(connection)
        #expect(throws: SQLiteError.self) { try connection.execute("INSERT INTO t VALUES (1), (1)") }
        #expect(probe.lastStatementChanges == 0)
        #expect(throws: SQLiteError.self) { try connection.execute("INSERT OR FAIL INTO t VALUES (2), (3), (2)") }
        #expect(probe.lastStatementChanges == 2)
    }

    @Test func aForeignKeyActionIsInsideTheRunThatStartedItAndARunAgainIsNot() throws {
        let connection = try Connection.inMemory()
        try connection.execute("""
            PRAGMA foreign_keys = ON;
            CREATE TABLE p(id INTEGER PRIMARY KEY);
            CREATE TABLE c(id INTEGER PRIMARY KEY, p INTEGER REFERENCES p(id) ON DELETE CASCADE);
            INSERT INTO p VALUES (1), (2); INSERT INTO c VALUES (10, 1), (20, 2);
            """)
        final class Starts: StatementStartObserver {
            let probe: StatementProbe
            var progress: [StatementProgress] = []
            init(_ probe: StatementProbe) { self.probe = probe }
            func statementStarted(_ statement: OpaquePointer, sql: UnsafePointer<CChar>) {
                progress.append(probe.progress(of: statement))
            }
        }
        let starts = Starts(try StatementProbe(connection))
        try connection.setStatementStartObserver(starts)
        let delete = try connection.cachedStatement("DELETE FROM p WHERE id = ?")
        try delete.bind(1, at: 1)
        try delete.run()
        // The delete, then its cascade traced as the delete again.
        #expect(starts.progress.count == 2)
        #expect(starts.progress[1].isInsideRun(tracedAt: starts.progress[0]))
        try delete.bind(2, at: 1)
        try delete.run()
        #expect(starts.progress.count == 4)
        #expect(!starts.progress[2].isInsideRun(tracedAt: starts.progress[0]))
        #expect(starts.progress[3].isInsideRun(tracedAt: starts.progress[2]))
    }

    @Test func triggersCanBeTurnedOffForAConnection() throws {
        let connection = try Connection.inMemory()
        try connection.execute("""
            CREATE TABLE t(x); CREATE TABLE audit(x);
            CREATE TRIGGER t_audit AFTER INSERT ON t BEGIN INSERT INTO audit VALUES (NEW.x); END
            """)
        #expect(try connection.triggersEnabled())
        try connection.setTriggersEnabled(false)
        #expect(try !connection.triggersEnabled())
        try connection.execute("INSERT INTO t VALUES (1)")
        #expect(try connection.fetchValue("SELECT count(*) FROM audit") == .integer(0))
        try connection.setTriggersEnabled(true)
        try connection.execute("INSERT INTO t VALUES (2)")
        #expect(try connection.fetchValue("SELECT count(*) FROM audit") == .integer(1))
    }
}
