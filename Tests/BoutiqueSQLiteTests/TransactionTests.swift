import Testing

@testable import BoutiqueSQLite

@Suite("Connection: transactions and savepoints")
struct TransactionTests {
    private func values(_ connection: Connection) throws -> [DatabaseValue] {
        try connection.fetchRows("SELECT value FROM t ORDER BY id").rows.map { $0[0] }
    }

    @Test func beginCommitAndRollbackByHand() throws {
        let connection = try Connection.inMemoryWithTable()
        try connection.beginTransaction()
        #expect(!connection.isAutocommit)
        try connection.execute("INSERT INTO t(value) VALUES ('kept')")
        try connection.commit()
        #expect(connection.isAutocommit)

        try connection.beginTransaction(.immediate)
        try connection.execute("INSERT INTO t(value) VALUES ('dropped')")
        try connection.rollback()
        #expect(connection.isAutocommit)
        #expect(try values(connection) == ["kept"])
    }

    @Test func transactionStatementsAreCompiledOnceAndReused() throws {
        let connection = try Connection.inMemoryWithTable()
        for value in 1...3 {
            try connection.beginTransaction(.immediate)
            try connection.execute("INSERT INTO t(value) VALUES (?)", [.integer(Int64(value))])
            try connection.commit()
        }
        try connection.beginTransaction(.immediate)
        try connection.rollback()
        // BEGIN IMMEDIATE, COMMIT, ROLLBACK and the INSERT: one compiled statement each, however many
        // transactions ran.
        #expect(connection.cachedStatementCount == 4)
        #expect(try values(connection) == [1, 2, 3])
    }

    @Test func aCommitThatFailsLeavesTheTransactionOpenAndCanRunAgain() throws {
        let connection = try Connection.inMemory()
        try connection.execute("PRAGMA foreign_keys = ON")
        try connection.execute("""
            CREATE TABLE parent(id INTEGER PRIMARY KEY);
            CREATE TABLE child(parent REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)
            """)
        try connection.beginTransaction()
        try connection.execute("INSERT INTO child VALUES (1)")
        let error = #expect(throws: SQLiteError.self) { try connection.commit() }
        #expect(error?.code == .constraint)
        #expect(!connection.isAutocommit)
        // The same cached COMMIT runs again once the violation is fixed.
        try connection.execute("INSERT INTO parent VALUES (1)")
        try connection.commit()
        #expect(connection.isAutocommit)
        #expect(try connection.fetchInt("SELECT count(*) FROM child") == 1)
    }

    @Test func transactionCommitsWhenTheBodyReturns() throws {
        let connection = try Connection.inMemoryWithTable()
        let count = try connection.transaction {
            #expect(!connection.isAutocommit)
            try connection.execute("INSERT INTO t(value) VALUES (1), (2)")
            return try connection.fetchInt("SELECT count(*) FROM t")
        }
        #expect(count == 2)
        #expect(connection.isAutocommit)
        #expect(try values(connection) == [1, 2])
    }

    @Test func transactionRollsBackAndRethrowsWhenTheBodyThrows() throws {
        let connection = try Connection.inMemoryWithTable()
        try connection.execute("INSERT INTO t(value) VALUES ('before')")
        #expect(throws: RollbackRequest()) {
            try connection.transaction {
                try connection.execute("INSERT INTO t(value) VALUES ('inside')")
                try connection.execute("UPDATE t SET value = 'changed'")
                throw RollbackRequest()
            }
        }
        #expect(connection.isAutocommit)
        #expect(try values(connection) == ["before"])
    }

    @Test func transactionRollsBackWhenASQLStatementFails() throws {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE u(x UNIQUE)")
        let error = #expect(throws: SQLiteError.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO u VALUES (1)")
                try connection.execute("INSERT INTO u VALUES (1)")
            }
        }
        #expect(error?.extendedCode == .constraintUnique)
        #expect(try connection.fetchInt("SELECT count(*) FROM u") == 0)
    }

    @Test func transactionRollsBackWhenCommitFails() throws {
        let connection = try Connection.inMemory()
        try connection.setForeignKeysEnabled(true)
        try connection.execute(
            """
            CREATE TABLE parent(id INTEGER PRIMARY KEY);
            CREATE TABLE child(parent_id REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);
            """)
        let error = #expect(throws: SQLiteError.self) {
            try connection.transaction {
                // Deferred: the missing parent is only noticed at COMMIT.
                try connection.execute("INSERT INTO child VALUES (99)")
            }
        }
        #expect(error?.extendedCode == .constraintForeignKey)
        #expect(connection.isAutocommit)
        #expect(try connection.fetchInt("SELECT count(*) FROM child") == 0)
    }

    @Test func beginInsideATransactionFails() throws {
        let connection = try Connection.inMemory()
        try connection.beginTransaction()
        let error = #expect(throws: SQLiteError.self) { try connection.beginTransaction() }
        #expect(error?.code == .error)
        #expect(error?.message.contains("within a transaction") == true)
        let nested = #expect(throws: SQLiteError.self) { try connection.transaction {} }
        #expect(nested?.code == .error)
        // The outer transaction is still open.
        #expect(!connection.isAutocommit)
        try connection.commit()
    }

    @Test func rollbackWithoutATransactionIsHarmlessButCommitIsNot() throws {
        let connection = try Connection.inMemory()
        try connection.rollback()
        let error = #expect(throws: SQLiteError.self) { try connection.commit() }
        #expect(error?.code == .error)
    }

    @Test func nestedSavepointRollbackKeepsTheOuterWork() throws {
        let connection = try Connection.inMemoryWithTable()
        try connection.transaction {
            try connection.execute("INSERT INTO t(value) VALUES ('outer')")
            try connection.savepoint("outer") {
                try connection.execute("INSERT INTO t(value) VALUES ('in savepoint')")
                #expect(throws: RollbackRequest()) {
                    try connection.savepoint("inner") {
                        try connection.execute("INSERT INTO t(value) VALUES ('rolled back')")
                        try connection.execute("DELETE FROM t WHERE value = 'outer'")
                        throw RollbackRequest()
                    }
                }
                #expect(try values(connection) == ["outer", "in savepoint"])
                try connection.savepoint("second inner") {
                    try connection.execute("INSERT INTO t(value) VALUES ('released')")
                }
            }
            #expect(!connection.isAutocommit)
        }
        #expect(try values(connection) == ["outer", "in savepoint", "released"])
    }

    @Test func savepointsWithTheSameNameNestCorrectly() throws {
        let connection = try Connection.inMemoryWithTable()
        try connection.savepoint {
            try connection.execute("INSERT INTO t(value) VALUES ('a')")
            try? connection.savepoint {
                try connection.execute("INSERT INTO t(value) VALUES ('b')")
                throw RollbackRequest()
            }
            try connection.execute("INSERT INTO t(value) VALUES ('c')")
        }
        #expect(try values(connection) == ["a", "c"])
        #expect(connection.isAutocommit)
    }

    @Test func savepointOutsideATransactionCommitsOrRollsBack() throws {
        let connection = try Connection.inMemoryWithTable()
        let result = try connection.savepoint {
            #expect(!connection.isAutocommit)
            try connection.execute("INSERT INTO t(value) VALUES ('committed')")
            return "done"
        }
        #expect(result == "done")
        #expect(connection.isAutocommit)

        #expect(throws: RollbackRequest()) {
            try connection.savepoint {
                try connection.execute("INSERT INTO t(value) VALUES ('gone')")
                throw RollbackRequest()
            }
        }
        #expect(connection.isAutocommit)
        #expect(try values(connection) == ["committed"])
    }

    @Test func savepointNamesAreQuoted() throws {
        let connection = try Connection.inMemoryWithTable()
        try connection.savepoint("we\"ird; DROP TABLE t") {
            try connection.execute("INSERT INTO t(value) VALUES (1)")
        }
        #expect(try values(connection) == [1])
    }

    @Test func outerRollbackDiscardsReleasedSavepoints() throws {
        let connection = try Connection.inMemoryWithTable()
        #expect(throws: RollbackRequest()) {
            try connection.transaction {
                try connection.savepoint {
                    try connection.execute("INSERT INTO t(value) VALUES ('released then discarded')")
                }
                throw RollbackRequest()
            }
        }
        #expect(try values(connection) == [])
    }

    @Test func deferredTransactionTakesNoLockUntilItWrites() throws {
        try withScratchDatabasePath { path in
            let first = try Connection(path: path)
            let second = try Connection(path: path)
            try first.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, value)")

            try first.beginTransaction(.deferred)
            try second.execute("INSERT INTO t(value) VALUES ('second')")  // no lock held yet
            try first.execute("INSERT INTO t(value) VALUES ('first')")
            // Now the first connection holds the write lock.
            let error = #expect(throws: SQLiteError.self) { try second.execute("INSERT INTO t(value) VALUES (2)") }
            #expect(error?.code == .busy)
            try first.commit()
            #expect(try values(second) == ["second", "first"])
        }
    }

    @Test func immediateTransactionLocksOutWritersButNotReaders() throws {
        try withScratchDatabasePath { path in
            let first = try Connection(path: path)
            let second = try Connection(path: path)
            try first.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, value); INSERT INTO t(value) VALUES (1)")

            try first.beginTransaction(.immediate)
            let error = #expect(throws: SQLiteError.self) { try second.execute("INSERT INTO t(value) VALUES (2)") }
            #expect(error?.code == .busy)
            let begin = #expect(throws: SQLiteError.self) { try second.beginTransaction(.immediate) }
            #expect(begin?.code == .busy)
            #expect(try second.fetchInt("SELECT count(*) FROM t") == 1)
            try first.commit()
            try second.execute("INSERT INTO t(value) VALUES (2)")
            #expect(try first.fetchInt("SELECT count(*) FROM t") == 2)
        }
    }

    @Test func exclusiveTransactionLocksOutReadersInRollbackJournalMode() throws {
        try withScratchDatabasePath { path in
            let first = try Connection(path: path)
            let second = try Connection(path: path)
            #expect(try first.setJournalMode(.delete) == .delete)
            try first.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, value); INSERT INTO t(value) VALUES (1)")
            #expect(try second.fetchInt("SELECT count(*) FROM t") == 1)

            try first.beginTransaction(.exclusive)
            let error = #expect(throws: SQLiteError.self) { try second.fetchInt("SELECT count(*) FROM t") }
            #expect(error?.code == .busy)
            try first.rollback()
            #expect(try second.fetchInt("SELECT count(*) FROM t") == 1)
        }
    }
}
