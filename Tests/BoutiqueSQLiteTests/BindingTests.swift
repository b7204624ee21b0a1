import Testing

@testable import BoutiqueSQLite

@Suite("Statements: binding parameters")
struct BindingTests {
    /// Binds with `bind` to `SELECT ?1, typeof(?1)` and returns the value read back and its SQL type.
    private func roundTrip(
        _ bind: (Statement) throws -> Void
    ) throws -> (value: DatabaseValue, type: String) {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT ?1, typeof(?1)")
        try bind(statement)
        return try withExtendedLifetime(connection) {
            #expect(try statement.step())
            return (try statement.value(at: 0), try statement.string(at: 1))
        }
    }

    @Test func bindsEachTypeByIndex() throws {
        #expect(try roundTrip { s in try s.bindNull(at: 1) } == (.null, "null"))
        #expect(try roundTrip { s in try s.bind(Int64(-9), at: 1) } == (.integer(-9), "integer"))
        #expect(try roundTrip { s in try s.bind(42, at: 1) } == (.integer(42), "integer"))
        #expect(try roundTrip { s in try s.bind(2.5, at: 1) } == (.real(2.5), "real"))
        #expect(try roundTrip { s in try s.bind("héllo ✓", at: 1) } == (.text("héllo ✓"), "text"))
        #expect(try roundTrip { s in try s.bind([0, 1, 255] as [UInt8], at: 1) } == (.blob([0, 1, 255]), "blob"))
    }

    @Test(arguments: [
        DatabaseValue.null, .integer(0), .integer(-1), .real(-0.25), .text(""), .text("x"), .blob([]), .blob([9]),
    ])
    func bindsEveryDatabaseValue(value: DatabaseValue) throws {
        let result = try roundTrip { s in try s.bind(value, at: 1) }
        #expect(result.value == value)
        #expect(result.type == value.storageClass.description.lowercased())
    }

    @Test func bindingAnArrayFillsParametersInOrder() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT ?, ?, ?, ?")
        try statement.bind([1, "b", nil, 4.5])
        #expect(try statement.step())
        #expect(try statement.row() == [.integer(1), .text("b"), .null, .real(4.5)])
        withExtendedLifetime(connection) {}
    }

    @Test func numberedParametersShareOneBinding() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT ?2, ?1, ?2")
        #expect(statement.parameterCount == 2)
        try statement.bind(["one", "two"])
        #expect(try statement.step())
        #expect(try statement.row() == [.text("two"), .text("one"), .text("two")])
        withExtendedLifetime(connection) {}
    }

    @Test func bindsNamedParametersWithEveryPrefix() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT :colon, @at, $dollar")
        #expect(try statement.parameterIndex(named: ":colon") == 1)
        #expect(try statement.parameterIndex(named: "colon") == 1)
        #expect(try statement.parameterIndex(named: "@at") == 2)
        #expect(try statement.parameterIndex(named: "$dollar") == 3)

        try statement.bind(.integer(1), named: "colon")
        try statement.bind(.text("two"), named: "@at")
        try statement.bind(.real(3), named: "$dollar")
        #expect(try statement.step())
        #expect(try statement.row() == [.integer(1), .text("two"), .real(3)])
        withExtendedLifetime(connection) {}
    }

    @Test func bindsADictionaryOfNamedParameters() throws {
        let connection = try Connection.inMemoryWithTable()
        let insert = try connection.prepare("INSERT INTO t(id, value) VALUES (:id, :value)")
        try insert.bind(["id": 7, ":value": "seven"])
        try insert.run()
        #expect(try connection.fetchRows("SELECT id, value FROM t").rows == [[.integer(7), .text("seven")]])
    }

    @Test func unboundParametersAreNull() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT ?1 IS NULL, ?2")
        try statement.bind(5, at: 2)
        #expect(try statement.step())
        #expect(statement.int64(at: 0) == 1)
        #expect(statement.int64(at: 1) == 5)
        withExtendedLifetime(connection) {}
    }

    @Test func clearBindingsSetsEveryParameterBackToNull() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT ?1, ?2")
        try statement.bind([1, 2])
        try statement.clearBindings()
        #expect(try statement.step())
        #expect(try statement.row() == [.null, .null])
        withExtendedLifetime(connection) {}
    }

    @Test func bindingAgainReplacesTheValue() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT ?1")
        try statement.bind("first", at: 1)
        try statement.bind(2, at: 1)
        #expect(try statement.step())
        #expect(try statement.value(at: 0) == .integer(2))
        withExtendedLifetime(connection) {}
    }

    @Test func copiedTextDoesNotDependOnTheCallersString() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT ?1")
        do {
            let temporary = String(repeating: "abc", count: 1000)
            try statement.bind(temporary, at: 1)
        }
        _ = String(repeating: "xyz", count: 1000)
        #expect(try statement.step())
        #expect(try statement.string(at: 0) == String(repeating: "abc", count: 1000))
        withExtendedLifetime(connection) {}
    }

    @Test func bindNoCopyReadsTheCallersBuffer() throws {
        let connection = try Connection.inMemoryWithTable()
        let insert = try connection.prepare("INSERT INTO t(value) VALUES (?1)")
        let bytes: [UInt8] = Array(0...255)
        try bytes.withUnsafeBytes { buffer in
            try insert.bindNoCopy(buffer, at: 1)
            try insert.run()
            try insert.clearBindings()
        }
        let text = Array("no copy ✓".utf8)
        try text.withUnsafeBufferPointer { buffer in
            try insert.bindTextNoCopy(buffer, at: 1)
            try insert.run()
            try insert.clearBindings()
        }
        let rows = try connection.fetchRows("SELECT value, typeof(value) FROM t ORDER BY id").rows
        #expect(rows == [[.blob(bytes), .text("blob")], [.text("no copy ✓"), .text("text")]])
    }

    @Test func emptyBuffersBoundWithoutCopyAreEmptyNotNull() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT typeof(?1), typeof(?2), length(?1), length(?2)")
        let empty: [UInt8] = []
        try empty.withUnsafeBytes { buffer in try statement.bindNoCopy(buffer, at: 1) }
        try statement.bindTextNoCopy(UnsafeBufferPointer(start: nil, count: 0), at: 2)
        #expect(try statement.step())
        #expect(try statement.row() == [.text("blob"), .text("text"), .integer(0), .integer(0)])
        withExtendedLifetime(connection) {}
    }

    @Test func bindingDoesNotTurnValuesIntoSQL() throws {
        let connection = try Connection.inMemoryWithTable()
        let hostile = "x'); DROP TABLE t; --"
        try connection.execute("INSERT INTO t(value) VALUES (?)", [.text(hostile)])
        #expect(try connection.fetchValue("SELECT value FROM t") == .text(hostile))
        #expect(try connection.fetchInt("SELECT count(*) FROM sqlite_schema WHERE name = 't'") == 1)
    }
}
