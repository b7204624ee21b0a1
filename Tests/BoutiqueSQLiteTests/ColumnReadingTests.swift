import Testing

@testable import BoutiqueSQLite

@Suite("Statements: reading columns")
struct ColumnReadingTests {
    /// The statement for `sql`, stepped to its first row. The caller keeps `connection` alive: a statement
    /// whose connection is gone is finalized.
    private func firstRow(_ sql: String, on connection: Connection) throws -> Statement {
        let statement = try connection.prepare(sql)
        #expect(try statement.step())
        return statement
    }

    @Test func columnTypeReportsEachStorageClass() throws {
        let connection = try Connection.inMemory()
        let statement = try firstRow("SELECT NULL, 1, 1.5, 'a', x'01'", on: connection)
        #expect((0..<5).map { statement.columnType(at: $0) } == [.null, .integer, .real, .text, .blob])
        #expect((0..<5).map { statement.isNull(at: $0) } == [true, false, false, false, false])
        #expect(try statement.row() == [.null, .integer(1), .real(1.5), .text("a"), .blob([1])])
        withExtendedLifetime(connection) {}
    }

    @Test func typedReadsOfEachStorageClass() throws {
        let connection = try Connection.inMemory()
        let statement = try firstRow("SELECT 9007199254740993, -2.75, 'text ✓', x'deadbeef'", on: connection)
        #expect(statement.int64(at: 0) == 9_007_199_254_740_993)
        #expect(statement.int(at: 0) == 9_007_199_254_740_993)
        #expect(statement.double(at: 1) == -2.75)
        #expect(try statement.string(at: 2) == "text ✓")
        #expect(statement.textBytes(at: 2) == Array("text ✓".utf8))
        #expect(statement.blob(at: 3) == [0xDE, 0xAD, 0xBE, 0xEF])
        let sum = statement.withUnsafeBlob(at: 3) { buffer in buffer.reduce(0) { $0 + Int($1) } }
        #expect(sum == 0xDE + 0xAD + 0xBE + 0xEF)
        withExtendedLifetime(connection) {}
    }

    @Test func nullReadsAsZeroAndEmpty() throws {
        let connection = try Connection.inMemory()
        let statement = try firstRow("SELECT NULL", on: connection)
        #expect(statement.int64(at: 0) == 0)
        #expect(statement.double(at: 0) == 0)
        #expect(try statement.string(at: 0) == "")
        #expect(statement.textBytes(at: 0) == [])
        #expect(statement.blob(at: 0) == [])
        #expect(statement.withUnsafeBlob(at: 0) { $0.count } == 0)
        #expect(try statement.value(at: 0) == .null)
        withExtendedLifetime(connection) {}
    }

    @Test func typedReadsApplySQLiteConversions() throws {
        let connection = try Connection.inMemory()
        let statement = try firstRow("SELECT '42', 3.9, 7, 'abc'", on: connection)
        #expect(statement.int64(at: 0) == 42)
        #expect(statement.int64(at: 1) == 3)
        #expect(statement.double(at: 2) == 7)
        #expect(try statement.string(at: 2) == "7")
        #expect(statement.blob(at: 3) == Array("abc".utf8))
        #expect(statement.int64(at: 3) == 0)
        withExtendedLifetime(connection) {}
    }

    @Test func columnNamesFollowAliasesAndExpressions() throws {
        let connection = try Connection.inMemoryWithTable()
        let statement = try connection.prepare("SELECT id, value AS v, 1 + 1, count(*) AS \"we\"\"ird\" FROM t")
        #expect(statement.columnNames == ["id", "v", "1 + 1", "we\"ird"])
        #expect(statement.columnName(at: 1) == "v")
        #expect(statement.columnName(at: 4) == "")
        #expect(statement.columnName(at: -1) == "")
        withExtendedLifetime(connection) {}
    }

    @Test func readingOutOfRangeOrBeforeAStepReadsNull() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT 1, 'two'")
        // No row yet.
        #expect(statement.columnType(at: 0) == .null)
        #expect(statement.int64(at: 0) == 0)
        #expect(try statement.string(at: 1) == "")
        #expect(try statement.step())
        for index: Int32 in [-1, 2, 1000, .max, .min] {
            #expect(statement.columnType(at: index) == .null)
            #expect(statement.isNull(at: index))
            #expect(statement.int64(at: index) == 0)
            #expect(try statement.string(at: index) == "")
            #expect(statement.blob(at: index) == [])
            #expect(try statement.value(at: index) == .null)
        }
        // The row itself is unharmed.
        #expect(try statement.row() == [.integer(1), .text("two")])
        #expect(!(try statement.step()))
        #expect(statement.columnType(at: 0) == .null)
        withExtendedLifetime(connection) {}
    }

    @Test func valuesStoredInATableKeepTheirStorageClass() throws {
        let connection = try Connection.inMemoryWithTable()
        let values: [DatabaseValue] = [.null, .integer(-5), .real(0.5), .text("t"), .blob([1, 2])]
        for value in values { try connection.execute("INSERT INTO t(value) VALUES (?)", [value]) }
        let read = try connection.fetchRows("SELECT value FROM t ORDER BY id").rows.map { $0[0] }
        #expect(read == values)
    }

    @Test func declaredAffinityConvertsOnStorage() throws {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE a(i INTEGER, r REAL, t TEXT, b BLOB)")
        try connection.execute("INSERT INTO a VALUES (?, ?, ?, ?)", ["12", 3, 4, "x"])
        let statement = try firstRow("SELECT i, r, t, b FROM a", on: connection)
        #expect(try statement.row() == [.integer(12), .real(3), .text("4"), .text("x")])
        withExtendedLifetime(connection) {}
    }
}
