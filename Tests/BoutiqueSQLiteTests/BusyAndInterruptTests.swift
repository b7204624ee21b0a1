import Dispatch
import Foundation
import Testing

@testable import BoutiqueSQLite

@Suite("Connection: busy timeout, busy handler and interrupt")
struct BusyAndInterruptTests {
    /// Two connections to one file; the first holds the write lock (`BEGIN IMMEDIATE`) during `body`.
    private func withLockedDatabase(_ body: (_ holder: Connection, _ waiter: Connection) throws -> Void) throws {
        try withScratchDatabasePath { path in
            let holder = try Connection(path: path)
            try holder.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, value)")
            let waiter = try Connection(path: path)
            try holder.beginTransaction(.immediate)
            try body(holder, waiter)
            try holder.rollback()
        }
    }

    @Test func writeFailsWithBusyAfterTheTimeout() throws {
        try withLockedDatabase { _, waiter in
            try waiter.setBusyTimeout(milliseconds: 300)
            let start = ContinuousClock.now
            let error = #expect(throws: SQLiteError.self) { try waiter.execute("INSERT INTO t(value) VALUES (1)") }
            let waited = ContinuousClock.now - start
            #expect(error?.code == .busy)
            #expect(error?.sql == "INSERT INTO t(value) VALUES (1)")
            // SQLite sleeps in steps; allow for that, and for a slow machine, but it did wait.
            #expect(waited >= .milliseconds(200))
            #expect(waited < .seconds(30))
        }
    }

    @Test func withoutATimeoutAWriteFailsWithBusy() throws {
        try withLockedDatabase { _, waiter throws in
            let error = #expect(throws: SQLiteError.self) { try waiter.execute("INSERT INTO t(value) VALUES (1)") }
            #expect(error?.code == .busy)
            // Reading is still possible: the holder has not written to the file yet.
            #expect(try waiter.fetchInt("SELECT count(*) FROM t") == 0)
        }
    }

    @Test func busyTimeoutWaitsForALockReleasedInTime() throws {
        try withScratchDatabasePath { path in
            let holder = try Connection(path: path)
            try holder.execute("CREATE TABLE t(x)")
            try holder.beginTransaction(.immediate)
            try holder.execute("INSERT INTO t VALUES ('holder')")

            // The holder commits on a thread of its own while this one waits: a dispatch queue's
            // thread came over 20 s late in a sanitized run of the whole suite, whose tests held the
            // pool. The timeout only bounds a lock never released, so it is long: a passing run waits
            // for the commit, not for the timeout.
            let box = UncheckedConnection(holder)
            let released = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: 0.2)
                try? box.connection.commit()
                released.signal()
            }
            let waiter = try Connection(path: path)
            try waiter.setBusyTimeout(milliseconds: 600_000)
            try waiter.execute("INSERT INTO t VALUES ('waiter')")
            released.wait()
            #expect(try waiter.fetchRows("SELECT x FROM t ORDER BY rowid").rows == [["holder"], ["waiter"]])
        }
    }

    @Test func busyHandlerIsCalledWithIncreasingCountsUntilItGivesUp() throws {
        try withLockedDatabase { _, waiter in
            let counts = CallLog<Int>()
            try waiter.setBusyHandler { count in
                counts.append(count)
                return count < 3
            }
            let error = #expect(throws: SQLiteError.self) { try waiter.execute("INSERT INTO t(value) VALUES (1)") }
            #expect(error?.code == .busy)
            #expect(counts.items == [0, 1, 2, 3])
        }
    }

    @Test func busyHandlerRetriesUntilTheLockIsReleased() throws {
        try withScratchDatabasePath { path in
            let holder = try Connection(path: path)
            try holder.execute("CREATE TABLE t(x)")
            let waiter = try Connection(path: path)
            try holder.beginTransaction(.immediate)
            try holder.execute("INSERT INTO t VALUES ('holder')")

            let counts = CallLog<Int>()
            try waiter.setBusyHandler { count in
                counts.append(count)
                // The handler may use another connection: release the lock on the third call.
                if count == 2 { try? holder.commit() }
                return true
            }
            try waiter.execute("INSERT INTO t VALUES ('waiter')")
            #expect(counts.items == [0, 1, 2])
            #expect(try holder.fetchInt("SELECT count(*) FROM t") == 2)
        }
    }

    @Test func busyTimeoutReplacesTheBusyHandler() throws {
        try withLockedDatabase { _, waiter in
            let counts = CallLog<Int>()
            try waiter.setBusyHandler { count in
                counts.append(count)
                return false
            }
            try waiter.setBusyTimeout(milliseconds: 50)
            #expect(throws: SQLiteError.self) { try waiter.execute("INSERT INTO t(value) VALUES (1)") }
            #expect(counts.items.isEmpty)
        }
    }

    @Test func removingTheBusyHandlerFailsAtOnce() throws {
        try withLockedDatabase { _, waiter in
            let counts = CallLog<Int>()
            try waiter.setBusyHandler { count in
                counts.append(count)
                return false
            }
            try waiter.setBusyHandler(nil)
            let error = #expect(throws: SQLiteError.self) { try waiter.execute("INSERT INTO t(value) VALUES (1)") }
            #expect(error?.code == .busy)
            #expect(counts.items.isEmpty)
        }
    }

    /// A query that would take minutes: counts to a billion.
    private static let longQuery = """
        WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000)
        SELECT count(*) FROM c
        """

    /// Interrupts through `interrupter` from another thread, again and again, until `body` returns.
    private func whileInterrupting<T>(_ interrupter: InterruptHandle, _ body: () throws -> T) rethrows -> T {
        let done = LockedBox(false)
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            // An interrupt that arrives before the statement starts is forgotten, so repeat it.
            while !done.value {
                interrupter.interrupt()
                usleep(5_000)
            }
            stopped.signal()
        }
        defer {
            done.update { $0 = true }
            stopped.wait()
        }
        return try body()
    }

    @Test func interruptFromAnotherThreadStopsALongQuery() throws {
        let connection = try Connection.inMemory()
        let error = whileInterrupting(connection.interrupter) {
            #expect(throws: SQLiteError.self) { try connection.execute(Self.longQuery) }
        }
        #expect(error?.code == .interrupt)
        // The connection is usable afterwards.
        #expect(try connection.fetchInt("SELECT 40 + 2") == 42)
    }

    @Test func interruptStopsSteppingAPreparedStatement() throws {
        let connection = try Connection.inMemoryWithTable()
        let statement = try connection.prepare(Self.longQuery)
        let error = whileInterrupting(connection.interrupter) {
            #expect(throws: SQLiteError.self) { try statement.step() }
        }
        #expect(error?.code == .interrupt)
        try statement.reset()
        try connection.execute("INSERT INTO t(value) VALUES (1)")
        #expect(try connection.fetchInt("SELECT count(*) FROM t") == 1)
    }

    @Test func interruptRollsBackAWriteInProgress() throws {
        let connection = try Connection.inMemoryWithTable()
        let error = whileInterrupting(connection.interrupter) {
            #expect(throws: SQLiteError.self) {
                try connection.execute(
                    """
                    WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000)
                    INSERT INTO t(value) SELECT x FROM c
                    """)
            }
        }
        #expect(error?.code == .interrupt)
        #expect(connection.isAutocommit)
        #expect(try connection.fetchInt("SELECT count(*) FROM t") == 0)
    }

    @Test func interruptWithNothingRunningDoesNotAffectTheNextStatement() throws {
        let connection = try Connection.inMemory()
        connection.interrupt()
        connection.interrupter.interrupt()
        #expect(try connection.fetchInt("SELECT 1") == 1)
    }
}

/// Lets a test hand a connection to another thread.
///
/// Unchecked because `Connection` is not `Sendable`; it is safe in the one test that uses it: the other
/// thread is the only user of that connection until it signals, and the test thread waits for the signal
/// before the connection is used or released again.
private struct UncheckedConnection: @unchecked Sendable {
    let connection: Connection
    init(_ connection: Connection) { self.connection = connection }
}
