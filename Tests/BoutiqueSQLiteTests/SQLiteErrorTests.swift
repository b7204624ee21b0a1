import Testing

@testable import BoutiqueSQLite

@Suite("SQLiteError: codes, message and SQL")
struct SQLiteErrorTests {
    private func constraintConnection() throws -> Connection {
        let connection = try Connection.inMemory()
        try connection.setForeignKeysEnabled(true)
        try connection.execute(
            """
            CREATE TABLE parent(id INTEGER PRIMARY KEY);
            CREATE TABLE item(
                id INTEGER PRIMARY KEY,
                code TEXT UNIQUE,
                name TEXT NOT NULL,
                price REAL CHECK (price >= 0),
                parent_id INTEGER REFERENCES parent(id)
            );
            CREATE TABLE keyed(k TEXT PRIMARY KEY) WITHOUT ROWID;
            INSERT INTO parent VALUES (1);
            INSERT INTO item VALUES (1, 'A', 'first', 1, 1);
            INSERT INTO keyed VALUES ('k');
            """)
        return connection
    }

    @Test func uniqueViolationCarriesTheExtendedCodeMessageAndSQL() throws {
        let connection = try constraintConnection()
        let sql = "INSERT INTO item(code, name) VALUES ('A', 'duplicate')"
        let error = #expect(throws: SQLiteError.self) { try connection.execute(sql) }
        #expect(error?.extendedCode == .constraintUnique)
        #expect(error?.code == .constraint)
        #expect(error?.message == "UNIQUE constraint failed: item.code")
        #expect(error?.sql == sql)
    }

    @Test func eachConstraintHasItsExtendedCode() throws {
        let connection = try constraintConnection()
        let cases: [(String, ResultCode)] = [
            ("INSERT INTO item(name) VALUES (NULL)", .constraintNotNull),
            ("INSERT INTO item(name, price) VALUES ('x', -1)", .constraintCheck),
            ("INSERT INTO item(name, parent_id) VALUES ('x', 99)", .constraintForeignKey),
            ("INSERT INTO item(id, name) VALUES (1, 'x')", .constraintPrimaryKey),
            ("INSERT INTO keyed VALUES ('k')", .constraintPrimaryKey),
        ]
        for (sql, expected) in cases {
            let error = #expect(throws: SQLiteError.self, "\(sql)") { try connection.execute(sql) }
            #expect(error?.extendedCode == expected, "\(sql)")
            #expect(error?.code == .constraint, "\(sql)")
            #expect(error?.sql == sql, "\(sql)")
        }
        #expect(try connection.fetchInt("SELECT count(*) FROM item") == 1)
    }

    @Test func stepErrorsCarryTheStatementsSQL() throws {
        let connection = try constraintConnection()
        let insert = try connection.prepare("INSERT INTO item(code, name) VALUES (?, ?)")
        try insert.bind(["A", "again"])
        let error = #expect(throws: SQLiteError.self) { try insert.step() }
        #expect(error?.extendedCode == .constraintUnique)
        #expect(error?.sql == "INSERT INTO item(code, name) VALUES (?, ?)")
        try insert.reset()
        withExtendedLifetime(connection) {}
    }

    @Test func syntaxErrorFromPrepareCarriesMessageAndSQL() throws {
        let connection = try Connection.inMemory()
        let error = #expect(throws: SQLiteError.self) { try connection.prepare("SELEC 1") }
        #expect(error?.code == .error)
        #expect(error?.extendedCode == .error)
        #expect(error?.message == "near \"SELEC\": syntax error")
        #expect(error?.sql == "SELEC 1")
    }

    @Test func extendedCodesBelongToTheirPrimaryFamily() {
        #expect(ResultCode.busySnapshot.primary == .busy)
        #expect(ResultCode.busyTimeout.primary == .busy)
        #expect(ResultCode.readOnlyDatabaseMoved.primary == .readOnly)
        #expect(ResultCode.constraintUnique.primary == .constraint)
        #expect(ResultCode.constraintCommitHook.primary == .constraint)
        #expect(ResultCode.constraintUnique.rawValue == 2067)
        #expect(ResultCode.constraintPrimaryKey.rawValue == 1555)
        #expect(ResultCode.constraintCommitHook.rawValue == 531)
        #expect(ResultCode.authorization.rawValue == 23)
        #expect(ResultCode.constraint.primary == .constraint)
        #expect(SQLiteError(.constraintNotNull, message: "m").code == .constraint)
    }

    @Test func descriptionsNameTheCodeMessageAndSQL() {
        let error = SQLiteError(.constraintUnique, message: "UNIQUE constraint failed: t.x", sql: "INSERT INTO t VALUES (1)")
        #expect(error.description.contains("2067"))
        #expect(error.description.contains("UNIQUE constraint failed: t.x"))
        #expect(error.description.contains("INSERT INTO t VALUES (1)"))
        #expect(!SQLiteError(.busy, message: "database is locked").description.contains("while running"))
        #expect(ResultCode.busy.description == "database is locked (5)")
        #expect(ResultCode.constraintUnique.description.contains("constraint failed"))
    }

    @Test func errorsAreValuesThatCompare() {
        let one = SQLiteError(.misuse, message: "m", sql: "s")
        #expect(one == SQLiteError(.misuse, message: "m", sql: "s"))
        #expect(one != SQLiteError(.misuse, message: "m", sql: nil))
        #expect(Set([one, one]).count == 1)
    }

    @Test func anErrorLeavesTheConnectionUsable() throws {
        let connection = try constraintConnection()
        #expect(throws: SQLiteError.self) { try connection.execute("INSERT INTO item(code, name) VALUES ('A', 'x')") }
        try connection.execute("INSERT INTO item(code, name) VALUES ('B', 'y')")
        #expect(try connection.fetchInt("SELECT count(*) FROM item") == 2)
        #expect(connection.isAutocommit)
    }
}
