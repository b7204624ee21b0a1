import Foundation
import Testing

@testable import BoutiqueSQLite

@Suite("Connection: execute and fetch")
struct ExecuteTests {
    @Test func executeRunsEveryStatementWithTrailingCommentsAndWhitespace() throws {
        let connection = try Connection.inMemory()
        try connection.execute(
            """
            CREATE TABLE t(x);
            INSERT INTO t VALUES (1);   -- first row
            /* a block comment between statements */
            INSERT INTO t VALUES ('a;b');
            ;;
            INSERT INTO t VALUES (3);
            -- a trailing comment
            /* and another */

            """)
        let rows = try connection.fetchRows("SELECT x FROM t ORDER BY rowid").rows
        #expect(rows == [[.integer(1)], [.text("a;b")], [.integer(3)]])
    }

    @Test func executeLetsALaterStatementUseATableAnEarlierOneCreated() throws {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE a(x); CREATE INDEX a_x ON a(x); INSERT INTO a VALUES (5)")
        #expect(try connection.fetchInt("SELECT x FROM a INDEXED BY a_x WHERE x = 5") == 5)
    }

    @Test func executeDiscardsRowsOfQueries() throws {
        let connection = try Connection.inMemoryWithTable()
        try connection.execute("SELECT 1; INSERT INTO t(value) VALUES ('x'); SELECT * FROM t")
        #expect(try connection.fetchInt("SELECT count(*) FROM t") == 1)
    }

    @Test(arguments: ["", "   ", "\n\t", "-- only a comment", "/* only */", ";", " ; ; "])
    func executeOfNoStatementDoesNothing(sql: String) throws {
        let connection = try Connection.inMemory()
        try connection.execute(sql)
        #expect(connection.totalChanges == 0)
        #expect(try connection.fetchInt("SELECT count(*) FROM sqlite_schema") == 0)
    }

    @Test func compileFailureInTheMiddleKeepsTheEarlierStatements() throws {
        let connection = try Connection.inMemoryWithTable()
        let sql = """
            INSERT INTO t(value) VALUES ('first');
            INSERT INTO missing VALUES (1);
            INSERT INTO t(value) VALUES ('third');
            """
        let error = #expect(throws: SQLiteError.self) { try connection.execute(sql) }
        #expect(error?.code == .error)
        #expect(error?.message.contains("no such table: missing") == true)
        #expect(error?.sql == sql)
        #expect(try connection.fetchRows("SELECT value FROM t").rows == [[.text("first")]])
    }

    @Test func runtimeFailureInTheMiddleNamesTheFailingStatement() throws {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE u(x UNIQUE)")
        let error = #expect(throws: SQLiteError.self) {
            try connection.execute(
                "INSERT INTO u VALUES (1); INSERT INTO u VALUES (2); INSERT INTO u VALUES (1); INSERT INTO u VALUES (4)")
        }
        #expect(error?.extendedCode == .constraintUnique)
        // The SQL is that of the failing statement alone.
        #expect(error?.sql?.trimmingCharacters(in: .whitespaces) == "INSERT INTO u VALUES (1);")
        #expect(try connection.fetchRows("SELECT x FROM u ORDER BY x").rows == [[.integer(1)], [.integer(2)]])
        #expect(connection.isAutocommit)
    }

    @Test func executeWithArgumentsBindsInOrderAndReusesItsStatement() throws {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE p(a, b, c)")
        let sql = "INSERT INTO p VALUES (?, ?, ?)"
        try connection.execute(sql, [1, "two", 3.5])
        try connection.execute(sql, [nil, .blob([0xAB]), -4])
        #expect(connection.cachedStatementCount == 1)
        let rows = try connection.fetchRows("SELECT a, b, c FROM p ORDER BY rowid").rows
        #expect(rows == [[.integer(1), .text("two"), .real(3.5)], [.null, .blob([0xAB]), .integer(-4)]])
    }

    @Test func executeWithFewerArgumentsBindsNullToTheRest() throws {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE p(a, b)")
        let sql = "INSERT INTO p VALUES (?, ?)"
        try connection.execute(sql, [1, 2])
        // The cached statement's earlier bindings are cleared, not reused.
        try connection.execute(sql, [3])
        #expect(try connection.fetchRows("SELECT a, b FROM p WHERE a = 3").rows == [[.integer(3), .null]])
    }

    @Test func fetchRowsReturnsColumnNamesAndRows() throws {
        let connection = try Connection.inMemoryWithTable()
        try connection.execute("INSERT INTO t(value) VALUES ('a'), ('b')")
        let result = try connection.fetchRows("SELECT id AS identifier, value FROM t WHERE id >= ? ORDER BY id", [1])
        #expect(result.columns == ["identifier", "value"])
        #expect(result.rows == [[.integer(1), .text("a")], [.integer(2), .text("b")]])

        let empty = try connection.fetchRows("SELECT id FROM t WHERE id > 100")
        #expect(empty.columns == ["id"])
        #expect(empty.rows.isEmpty)
    }

    @Test func fetchValueReturnsTheFirstColumnOfTheFirstRowOrNil() throws {
        let connection = try Connection.inMemoryWithTable()
        #expect(try connection.fetchValue("SELECT value FROM t") == nil)
        try connection.execute("INSERT INTO t(value) VALUES (NULL), ('x')")
        #expect(try connection.fetchValue("SELECT value FROM t ORDER BY id") == .null)
        #expect(try connection.fetchValue("SELECT value FROM t WHERE id = ?", [2]) == .text("x"))
        // The cached statement was reset: the connection holds no open read.
        try connection.execute("DROP TABLE t")
        #expect(try connection.fetchInt("SELECT count(*) FROM sqlite_schema") == 0)
    }

    @Test func lastInsertRowIDChangesAndTotalChanges() throws {
        let connection = try Connection.inMemoryWithTable()
        #expect(connection.lastInsertRowID == 0)
        #expect(connection.totalChanges == 0)

        try connection.execute("INSERT INTO t(id, value) VALUES (10, 'a')")
        #expect(connection.lastInsertRowID == 10)
        #expect(connection.changes == 1)
        try connection.execute("INSERT INTO t(value) VALUES ('b'), ('c'), ('d')")
        #expect(connection.lastInsertRowID == 13)
        #expect(connection.changes == 3)
        #expect(connection.totalChanges == 4)

        try connection.execute("UPDATE t SET value = 'z' WHERE id > 10")
        #expect(connection.changes == 3)
        #expect(connection.totalChanges == 7)

        try connection.execute("DELETE FROM t WHERE id IN (10, 11)")
        #expect(connection.changes == 2)
        #expect(connection.totalChanges == 9)
        // A query changes nothing and keeps the last count; the rowid is that of the last insert.
        _ = try connection.fetchRows("SELECT * FROM t")
        #expect(connection.changes == 2)
        #expect(connection.lastInsertRowID == 13)
    }

    @Test func changesThroughAPreparedStatement() throws {
        let connection = try Connection.inMemoryWithTable()
        let insert = try connection.prepare("INSERT INTO t(value) VALUES (?)")
        for index in 1...5 {
            try insert.bind(index, at: 1)
            try insert.run()
            #expect(connection.lastInsertRowID == Int64(index))
            #expect(connection.changes == 1)
        }
        #expect(connection.totalChanges == 5)
        #expect(try connection.fetchInt("SELECT sum(value) FROM t") == 15)
    }
}
