import Testing

@testable import BoutiqueSQLite

@Suite("Statements: prepare and the statement cache")
struct StatementCacheTests {
    @Test func prepareCompilesOneStatementAndDescribesIt() throws {
        let connection = try Connection.inMemoryWithTable()
        let query = try connection.prepare("SELECT id, value AS v FROM t WHERE id = ?1 OR value = :name")
        #expect(query.sql == "SELECT id, value AS v FROM t WHERE id = ?1 OR value = :name")
        #expect(query.columnCount == 2)
        #expect(query.columnNames == ["id", "v"])
        #expect(query.parameterCount == 2)
        #expect(query.isReadOnly)

        let insert = try connection.prepare("INSERT INTO t(value) VALUES (?)")
        #expect(!insert.isReadOnly)
        #expect(insert.columnCount == 0)
        try insert.bind("it's", at: 1)
        #expect(insert.expandedSQL == "INSERT INTO t(value) VALUES ('it''s')")
        withExtendedLifetime(connection) {}
    }

    @Test(arguments: [
        "SELECT 1;", "SELECT 1 ;  ", "SELECT 1; -- trailing comment", "SELECT 1 /* c */ ; /* c */\n", "SELECT 1;;",
    ])
    func prepareAcceptsTrailingWhitespaceCommentsAndSemicolons(sql: String) throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare(sql)
        #expect(try statement.step())
        #expect(statement.int64(at: 0) == 1)
        withExtendedLifetime(connection) {}
    }

    @Test(arguments: ["SELECT 1; SELECT 2", "SELECT 1;; SELECT 2", "SELECT 1; -- c\n SELECT 2", "SELECT 1; SELEC"])
    func prepareRejectsASecondStatement(sql: String) throws {
        let connection = try Connection.inMemory()
        let error = #expect(throws: SQLiteError.self) { try connection.prepare(sql) }
        #expect(error?.code == .misuse)
        #expect(error?.sql == sql)
        #expect(error?.message.contains("one statement") == true)
    }

    @Test func prepareRejectsASecondStatementWithoutRunningEither() throws {
        let connection = try Connection.inMemoryWithTable()
        #expect(throws: SQLiteError.self) {
            try connection.prepare("INSERT INTO t(value) VALUES (1); DROP TABLE t")
        }
        #expect(try connection.fetchInt("SELECT count(*) FROM t") == 0)
        #expect(connection.totalChanges == 0)
    }

    @Test(arguments: ["", "   ", "-- nothing", "/* nothing */", ";"])
    func prepareRejectsSQLWithoutAStatement(sql: String) throws {
        let connection = try Connection.inMemory()
        let error = #expect(throws: SQLiteError.self) { try connection.prepare(sql) }
        #expect(error?.code == .misuse)
        #expect(error?.message.contains("no statement") == true)
    }

    @Test func cachedStatementReturnsTheSameStatement() throws {
        let connection = try Connection.inMemoryWithTable()
        let first = try connection.cachedStatement("SELECT count(*) FROM t")
        let second = try connection.cachedStatement("SELECT count(*) FROM t")
        let other = try connection.cachedStatement("SELECT count(*) FROM t WHERE id > 0")
        #expect(first === second)
        #expect(first !== other)
        #expect(connection.cachedStatementCount == 2)
        // prepare never uses the cache.
        #expect(try connection.prepare("SELECT count(*) FROM t") !== first)
    }

    @Test func cachedStatementComesBackResetWithBindingsCleared() throws {
        let connection = try Connection.inMemoryWithTable()
        try connection.execute("INSERT INTO t(value) VALUES ('a'), ('b'), ('c')")
        let sql = "SELECT value, ?1 FROM t ORDER BY id"
        let statement = try connection.cachedStatement(sql)
        try statement.bind("bound", at: 1)
        #expect(try statement.step())
        #expect(try statement.step())
        #expect(try statement.string(at: 0) == "b")
        #expect(try statement.string(at: 1) == "bound")

        let again = try connection.cachedStatement(sql)
        #expect(again === statement)
        #expect(try again.step())
        #expect(try again.string(at: 0) == "a")
        #expect(again.isNull(at: 1))
        withExtendedLifetime(connection) {}
    }

    @Test func clearingTheCacheFinalizesItsStatements() throws {
        let connection = try Connection.inMemoryWithTable()
        let cached = try connection.cachedStatement("SELECT 1")
        _ = try connection.cachedStatement("SELECT 2")
        #expect(connection.cachedStatementCount == 2)

        connection.clearStatementCache()
        #expect(connection.cachedStatementCount == 0)
        #expect(cached.handle == nil)
        #expect(throws: SQLiteError.self) { try cached.step() }

        let fresh = try connection.cachedStatement("SELECT 1")
        #expect(fresh !== cached)
        #expect(try fresh.step())
        #expect(fresh.int64(at: 0) == 1)
        withExtendedLifetime(connection) {}
    }

    @Test func cachedStatementFinalizedByItsUserIsReplaced() throws {
        let connection = try Connection.inMemory()
        let cached = try connection.cachedStatement("SELECT 7")
        cached.finalize()
        let replacement = try connection.cachedStatement("SELECT 7")
        #expect(replacement !== cached)
        #expect(try replacement.step())
        #expect(replacement.int64(at: 0) == 7)
        #expect(connection.cachedStatementCount == 1)
    }

    @Test func aFullCacheDoesNotFinalizeAStatementStillInUse() throws {
        let connection = try Connection.inMemoryWithTable()
        try connection.execute("INSERT INTO t(value) VALUES (1), (2), (3)")
        let held = try connection.cachedStatement("SELECT value FROM t ORDER BY id")
        #expect(try held.step())
        #expect(held.int64(at: 0) == 1)

        // Many more distinct statements than the cache keeps.
        for index in 0..<600 {
            #expect(try connection.fetchInt("SELECT \(index)") == Int64(index))
        }
        #expect(connection.cachedStatementCount <= 256)
        #expect(connection.cachedStatementCount > 0)

        // The statement being stepped carries on where it was.
        #expect(held.handle != nil)
        #expect(try held.step())
        #expect(held.int64(at: 0) == 2)
        #expect(try held.step())
        #expect(!(try held.step()))

        // Evicted statements nobody holds are finalized.
        let handle = try connection.requireHandle()
        try held.reset()
        #expect(unfinalizedStatementCount(handle) <= connection.cachedStatementCount + 1)
    }

    @Test func cachedStatementRecompilesAfterASchemaChange() throws {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE s(a); INSERT INTO s VALUES (1)")
        #expect(try connection.fetchRows("SELECT * FROM s").columns == ["a"])
        let statement = try connection.cachedStatement("SELECT * FROM s")
        try connection.execute("ALTER TABLE s ADD COLUMN b DEFAULT 2")
        let again = try connection.cachedStatement("SELECT * FROM s")
        #expect(again === statement)
        #expect(try again.step())
        #expect(try again.row() == [.integer(1), .integer(2)])
        withExtendedLifetime(connection) {}
    }

    @Test func resetRewindsAndKeepsBindings() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT ?1 UNION ALL SELECT ?1 + 1")
        try statement.bind(10, at: 1)
        #expect(try statement.step())
        #expect(try statement.step())
        #expect(statement.int64(at: 0) == 11)
        try statement.reset()
        #expect(try statement.step())
        #expect(statement.int64(at: 0) == 10)
        withExtendedLifetime(connection) {}
    }

    @Test func stepAfterDoneStartsOver() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT 5")
        #expect(try statement.step())
        #expect(!(try statement.step()))
        #expect(try statement.step())
        #expect(statement.int64(at: 0) == 5)
        withExtendedLifetime(connection) {}
    }

    @Test func runResetsSoTheStatementRunsAgain() throws {
        let connection = try Connection.inMemoryWithTable()
        let insert = try connection.prepare("INSERT INTO t(value) VALUES ('x') RETURNING id")
        try insert.run()
        try insert.run()
        try insert.run()
        #expect(try connection.fetchInt("SELECT count(*) FROM t") == 3)
    }

    @Test func runThatFailsResetsTheStatement() throws {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE u(x UNIQUE); INSERT INTO u VALUES (1)")
        let insert = try connection.prepare("INSERT INTO u VALUES (?)")
        try insert.bind(1, at: 1)
        let error = #expect(throws: SQLiteError.self) { try insert.run() }
        #expect(error?.extendedCode == .constraintUnique)
        #expect(error?.sql == "INSERT INTO u VALUES (?)")
        try insert.bind(2, at: 1)
        try insert.run()
        #expect(try connection.fetchInt("SELECT count(*) FROM u") == 2)
    }
}

extension StatementCacheTests {
    @Test func cachedRowsReusesOneStatementAndBindsAfresh() throws {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3)")
        let before = connection.cachedStatementCount
        #expect(try connection.cachedRows("SELECT x FROM t WHERE x >= ? ORDER BY x", [.integer(2)]) == [[.integer(2)], [.integer(3)]])
        #expect(try connection.cachedRows("SELECT x FROM t WHERE x >= ? ORDER BY x", [.integer(3)]) == [[.integer(3)]])
        #expect(connection.cachedStatementCount == before + 1)
    }
}
