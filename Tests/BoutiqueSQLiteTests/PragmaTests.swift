import Foundation
import Testing

@testable import BoutiqueSQLite

@Suite("Connection: pragmas")
struct PragmaTests {
    @Test func walModeOnAFileCreatesTheLogAndPersists() throws {
        try withScratchDatabasePath { path in
            let connection = try Connection(path: path)
            #expect(try connection.journalMode() == .delete)
            #expect(try connection.setJournalMode(.wal) == .wal)
            #expect(try connection.journalMode() == .wal)
            try connection.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))

            // WAL is a property of the file: a new connection finds it.
            let other = try Connection(path: path)
            #expect(try other.journalMode() == .wal)
            #expect(try other.fetchInt("SELECT x FROM t") == 1)
        }
    }

    @Test func inMemoryDatabaseStaysInMemoryJournalMode() throws {
        let connection = try Connection.inMemory()
        #expect(try connection.journalMode() == .memory)
        #expect(try connection.setJournalMode(.wal) == .memory)
        #expect(try connection.journalMode() == .memory)
        #expect(try connection.setJournalMode(.off) == .off)
    }

    @Test(arguments: [JournalMode.truncate, .persist, .memory, .delete, .wal])
    func everyFileJournalModeCanBeSet(mode: JournalMode) throws {
        try withScratchDatabasePath { path in
            let connection = try Connection(path: path)
            #expect(try connection.setJournalMode(mode) == mode)
            #expect(try connection.journalMode() == mode)
        }
    }

    @Test func synchronousLevelsRoundTrip() throws {
        try withScratchDatabasePath { path in
            let connection = try Connection(path: path)
            #expect(try connection.synchronous() == .full)  // Debian's default
            for mode in SynchronousMode.allCases {
                try connection.setSynchronous(mode)
                #expect(try connection.synchronous() == mode)
            }
        }
    }

    @Test func foreignKeysAreOffByDefaultAndEnforcedWhenOn() throws {
        let connection = try Connection.inMemory()
        try connection.execute(
            "CREATE TABLE parent(id INTEGER PRIMARY KEY); CREATE TABLE child(parent_id REFERENCES parent(id))")
        #expect(try connection.foreignKeysEnabled() == false)
        try connection.execute("INSERT INTO child VALUES (1)")

        try connection.setForeignKeysEnabled(true)
        #expect(try connection.foreignKeysEnabled())
        let error = #expect(throws: SQLiteError.self) { try connection.execute("INSERT INTO child VALUES (2)") }
        #expect(error?.extendedCode == .constraintForeignKey)

        try connection.setForeignKeysEnabled(false)
        #expect(try connection.foreignKeysEnabled() == false)
        try connection.execute("INSERT INTO child VALUES (3)")
        #expect(try connection.fetchInt("SELECT count(*) FROM child") == 2)
    }

    @Test func foreignKeysCannotChangeInsideATransaction() throws {
        let connection = try Connection.inMemory()
        try connection.beginTransaction()
        try connection.setForeignKeysEnabled(true)
        #expect(try connection.foreignKeysEnabled() == false)
        try connection.commit()
    }

    @Test func dataVersionChangesWhenAnotherConnectionCommits() throws {
        try withScratchDatabasePath { path in
            let observer = try Connection(path: path)
            let writer = try Connection(path: path)
            try observer.execute("CREATE TABLE t(x)")

            let start = try observer.dataVersion()
            // The observer's own commit does not change its data version.
            try observer.execute("INSERT INTO t VALUES (1)")
            #expect(try observer.dataVersion() == start)

            try writer.execute("INSERT INTO t VALUES (2)")
            let afterWrite = try observer.dataVersion()
            #expect(afterWrite != start)
            #expect(try observer.dataVersion() == afterWrite)

            // A rolled-back transaction of the other connection is no change.
            try writer.beginTransaction(.immediate)
            try writer.execute("INSERT INTO t VALUES (3)")
            try writer.rollback()
            #expect(try observer.dataVersion() == afterWrite)

            try writer.transaction { try writer.execute("DELETE FROM t") }
            #expect(try observer.dataVersion() != afterWrite)
        }
    }

    @Test func dataVersionInWALMode() throws {
        try withScratchDatabasePath { path in
            let observer = try Connection(path: path)
            try observer.setJournalMode(.wal)
            try observer.execute("CREATE TABLE t(x)")
            let writer = try Connection(path: path)
            let start = try observer.dataVersion()
            try writer.execute("INSERT INTO t VALUES (1)")
            #expect(try observer.dataVersion() != start)
        }
    }

    /// The writer's use: the number after its own commit is the number at its next `BEGIN` unless
    /// another connection committed in between (WAL: seen when the next transaction starts).
    @Test func fileDataVersionChangesWithEveryCommitOfAnyConnection() throws {
        try withScratchDatabasePath { path in
            let writer = try Connection(path: path)
            try writer.setJournalMode(.wal)
            try writer.execute("CREATE TABLE t(x)")
            let other = try Connection(path: path)

            let start = try writer.fileDataVersion()
            try writer.execute("INSERT INTO t VALUES (1)")
            let afterOwnCommit = try writer.fileDataVersion()
            #expect(afterOwnCommit != start)
            try writer.beginTransaction(.immediate)
            #expect(try writer.fileDataVersion() == afterOwnCommit)
            try writer.rollback()
            #expect(try writer.fileDataVersion() == afterOwnCommit)

            try other.execute("INSERT INTO t VALUES (2)")
            try writer.beginTransaction(.immediate)
            #expect(try writer.fileDataVersion() != afterOwnCommit)
            try writer.commit()

            // A rolled-back transaction of the other connection changes nothing.
            let settled = try writer.fileDataVersion()
            try other.beginTransaction(.immediate)
            try other.execute("INSERT INTO t VALUES (3)")
            try other.rollback()
            try writer.beginTransaction(.immediate)
            #expect(try writer.fileDataVersion() == settled)
            try writer.rollback()
        }
    }

    @Test func userVersionRoundTripsAndPersists() throws {
        try withScratchDatabasePath { path in
            let connection = try Connection(path: path)
            #expect(try connection.userVersion() == 0)
            try connection.setUserVersion(42)
            #expect(try connection.userVersion() == 42)
            try connection.setUserVersion(-7)
            #expect(try connection.userVersion() == -7)
            try connection.setUserVersion(Int64(Int32.max))
            connection.close()

            let reopened = try Connection(path: path)
            #expect(try reopened.userVersion() == Int64(Int32.max))
        }
    }

    @Test func integrityCheckOfASoundFileIsOK() throws {
        try withScratchDatabasePath { path in
            let connection = try Connection(path: path)
            try connection.execute(
                """
                CREATE TABLE t(id INTEGER PRIMARY KEY, value TEXT);
                CREATE INDEX t_value ON t(value);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
                INSERT INTO t(value) SELECT hex(randomblob(20)) FROM n;
                """)
            #expect(try connection.integrityCheck() == ["ok"])
        }
    }

    @Test func integrityCheckReportsADamagedFile() throws {
        try withScratchDatabasePath { path in
            let connection = try Connection(path: path)
            try connection.execute(
                """
                CREATE TABLE t(id INTEGER PRIMARY KEY, value TEXT);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
                INSERT INTO t(value) SELECT 'row ' || i FROM n;
                """)
            connection.close()

            // Page 2 holds the table's rows; overwrite it with bytes that are no b-tree page.
            var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(bytes.count >= 8192)
            bytes.replaceSubrange(4096..<8192, with: Data(repeating: 0xFF, count: 4096))
            try bytes.write(to: URL(fileURLWithPath: path))

            let damaged = try Connection(path: path)
            let read = #expect(throws: SQLiteError.self) { try damaged.fetchRows("SELECT * FROM t") }
            #expect(read?.code == .corrupt)
            do {
                let messages = try damaged.integrityCheck()
                #expect(messages != ["ok"])
            } catch let error as SQLiteError {
                #expect(error.code == .corrupt)
            }
        }
    }
}
