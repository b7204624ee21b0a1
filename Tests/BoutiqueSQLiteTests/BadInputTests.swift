import Foundation
import Testing

@testable import BoutiqueSQLite

/// Input that is wrong or unusual gets a clear error or comes back exactly as it went in; nothing traps.
@Suite("Bad and unusual input")
struct BadInputTests {
    // MARK: Files

    @Test func fileThatIsNotADatabaseIsRefusedAndLeftUnchanged() throws {
        try withScratchDirectory { directory in
            let path = directory.appendingPathComponent("notes.db").path
            var contents = Data("This is a plain text file, not an SQLite database.\n".utf8)
            for index in 0..<2000 { contents.append(UInt8(truncatingIfNeeded: index &* 31)) }
            try contents.write(to: URL(fileURLWithPath: path))
            let before = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date

            for flags: OpenFlags in [.default, [.readWrite], [.readOnly]] {
                let error = #expect(throws: SQLiteError.self) { try Connection(path: path, flags: flags) }
                #expect(error?.code == .notADatabase)
                #expect(error?.message.contains(path) == true)
            }

            let after = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(after == contents)
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == before)
            // No journal, WAL or shared-memory file was left beside it.
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["notes.db"])
        }
    }

    @Test func fileWithADamagedHeaderIsRefusedAndLeftUnchanged() throws {
        try withScratchDirectory { directory in
            let path = directory.appendingPathComponent("damaged.db").path
            let connection = try Connection(path: path)
            try connection.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
            connection.close()
            var contents = try Data(contentsOf: URL(fileURLWithPath: path))
            contents.replaceSubrange(0..<16, with: Data("SQLite format 2\u{0}".utf8))
            try contents.write(to: URL(fileURLWithPath: path))

            let error = #expect(throws: SQLiteError.self) { try Connection(path: path) }
            #expect(error?.code == .notADatabase)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == contents)
        }
    }

    // MARK: SQL

    @Test func invalidSQLReportsMessageAndSQLAndTheConnectionStaysUsable() throws {
        let connection = try Connection.inMemoryWithTable()
        let sql = "SELECT * FROM t WHERE"
        let prepared = #expect(throws: SQLiteError.self) { try connection.prepare(sql) }
        #expect(prepared?.code == .error)
        #expect(prepared?.message == "incomplete input")
        #expect(prepared?.sql == sql)

        let executed = #expect(throws: SQLiteError.self) { try connection.execute("INSERT INTO t VALUES (1, 2, 3)") }
        #expect(executed?.message == "table t has 2 columns but 3 values were supplied")
        #expect(executed?.sql == "INSERT INTO t VALUES (1, 2, 3)")

        let cached = #expect(throws: SQLiteError.self) { try connection.cachedStatement("SELECT nope FROM t") }
        #expect(cached?.message == "no such column: nope")
        #expect(connection.cachedStatementCount == 0)

        try connection.execute("INSERT INTO t(value) VALUES ('still fine')")
        #expect(try connection.fetchValue("SELECT value FROM t") == .text("still fine"))
    }

    @Test func sqlWithANulCharacterIsRefusedRatherThanCut() throws {
        let connection = try Connection.inMemoryWithTable()
        let sql = "SELECT 1;\u{0} DROP TABLE t"
        let executed = #expect(throws: SQLiteError.self) { try connection.execute(sql) }
        #expect(executed?.code == .misuse)
        let prepared = #expect(throws: SQLiteError.self) { try connection.prepare("SELECT 1\u{0}, 2") }
        #expect(prepared?.code == .misuse)
        #expect(throws: SQLiteError.self) { try connection.fetchValue("SELECT 1\u{0}") }
        #expect(try connection.fetchInt("SELECT count(*) FROM sqlite_schema WHERE name = 't'") == 1)
    }

    // MARK: Binding

    @Test func bindingIndexZeroFailsWithRange() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT ?")
        let error = #expect(throws: SQLiteError.self) { try statement.bind(1, at: 0) }
        #expect(error?.code == .range)
        #expect(error?.message == "column index out of range")
        #expect(error?.sql == "SELECT ?")
        #expect(throws: SQLiteError.self) { try statement.bind("x", at: 0) }
        #expect(throws: SQLiteError.self) { try statement.bind(DatabaseValue.null, at: -1) }
        // The statement still works.
        try statement.bind(5, at: 1)
        #expect(try statement.step())
        #expect(statement.int64(at: 0) == 5)
        withExtendedLifetime(connection) {}
    }

    @Test func bindingPastTheParameterCountFailsWithRange() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT ?, ?")
        for index: Int32 in [3, 1000, .max] {
            let error = #expect(throws: SQLiteError.self) { try statement.bind(1.5, at: index) }
            #expect(error?.code == .range)
        }
        let tooMany = #expect(throws: SQLiteError.self) { try statement.bind([1, 2, 3]) }
        #expect(tooMany?.code == .range)
        let blob = #expect(throws: SQLiteError.self) { try statement.bind([1, 2] as [UInt8], at: 3) }
        #expect(blob?.code == .range)
        #expect(try statement.step())
        #expect(try statement.row() == [.integer(1), .integer(2)])
        withExtendedLifetime(connection) {}
    }

    @Test func bindingAnUnknownNameFailsWithRange() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT :known")
        for name in ["unknown", ":unknown", "@known", "", "known\u{0}", ":known\u{0}x"] {
            let error = #expect(throws: SQLiteError.self, "\(name)") { try statement.bind(.integer(1), named: name) }
            #expect(error?.code == .range, "\(name)")
            #expect(error?.sql == "SELECT :known", "\(name)")
        }
        #expect(throws: SQLiteError.self) { try statement.bind(["known": 1, "other": 2]) }
        let positional = try connection.prepare("SELECT ?")
        #expect(throws: SQLiteError.self) { try positional.bind(.integer(1), named: "?") }
        withExtendedLifetime(connection) {}
    }

    // MARK: Values

    @Test func textWithNulCharactersRoundTrips() throws {
        let connection = try Connection.inMemoryWithTable()
        let text = "a\u{0}b\u{0}\u{0}c\u{0}"
        try connection.execute("INSERT INTO t(value) VALUES (?)", [.text(text)])
        #expect(try connection.fetchValue("SELECT value FROM t") == .text(text))
        #expect(try connection.fetchInt("SELECT length(CAST(value AS BLOB)) FROM t") == 7)

        let statement = try connection.prepare("SELECT value, ?1 FROM t")
        try statement.bind(text, at: 1)
        #expect(try statement.step())
        #expect(try statement.string(at: 0) == text)
        #expect(try statement.string(at: 1) == text)
        #expect(statement.textBytes(at: 0) == Array(text.utf8))
        withExtendedLifetime(connection) {}
    }

    @Test func invalidUTF8TextThrowsMismatchButItsBytesAreReadable() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT CAST(x'ff41' AS TEXT), 'ok'")
        #expect(try statement.step())
        #expect(statement.columnType(at: 0) == .text)
        let error = #expect(throws: SQLiteError.self) { try statement.string(at: 0) }
        #expect(error?.code == .mismatch)
        #expect(error?.sql == "SELECT CAST(x'ff41' AS TEXT), 'ok'")
        #expect(statement.textBytes(at: 0) == [0xFF, 0x41])
        #expect(statement.blob(at: 0) == [0xFF, 0x41])
        #expect(throws: SQLiteError.self) { try statement.value(at: 0) }
        #expect(throws: SQLiteError.self) { try statement.row() }
        #expect(try statement.string(at: 1) == "ok")
        #expect(throws: SQLiteError.self) { try connection.fetchRows("SELECT CAST(x'c328' AS TEXT)") }
    }

    @Test func invalidUTF8InAPreupdateValueThrowsMismatch() throws {
        let connection = try Connection.inMemoryWithTable()
        let errors = CallLog<SQLiteError>()
        try connection.setPreupdateHook { change in
            do {
                _ = try change.newValue(at: 1)
            } catch let error as SQLiteError {
                errors.append(error)
            } catch {}
        }
        try connection.execute("INSERT INTO t(value) VALUES (CAST(x'80' AS TEXT))")
        #expect(errors.items.map(\.code) == [.mismatch])
    }

    private static let tenMegabytes: [UInt8] = [UInt8](unsafeUninitializedCapacity: 10 * 1024 * 1024) { buffer, count in
        for index in buffer.indices { buffer[index] = UInt8(truncatingIfNeeded: index &* 7 &+ index >> 13) }
        count = buffer.count
    }

    /// Whether `bytes` are exactly `expected`, compared with `memcmp`: the suites share the cooperative
    /// pool, and an element-by-element loop over ten megabytes in a debug build (slower still under a
    /// sanitizer) holds one of its threads for seconds.
    private static func same(_ bytes: UnsafeRawBufferPointer, _ expected: [UInt8]) -> Bool {
        guard bytes.count == expected.count else { return false }
        guard let base = bytes.baseAddress else { return true }
        return expected.withUnsafeBytes { $0.baseAddress.map { memcmp($0, base, bytes.count) == 0 } ?? false }
    }

    private static func same(_ value: DatabaseValue?, _ expected: [UInt8]) -> Bool {
        guard case .blob(let bytes)? = value else { return false }
        return bytes.withUnsafeBytes { same($0, expected) }
    }

    @Test func tenMegabyteBlobRoundTripsWhenCopied() throws {
        let connection = try Connection.inMemoryWithTable()
        let blob = Self.tenMegabytes
        try connection.execute("INSERT INTO t(value) VALUES (?)", [.blob(blob)])
        #expect(try connection.fetchInt("SELECT length(value) FROM t") == Int64(blob.count))
        let statement = try connection.prepare("SELECT value FROM t")
        #expect(try statement.step())
        #expect(statement.columnType(at: 0) == .blob)
        #expect(Self.same(.blob(statement.blob(at: 0)), blob))
        #expect(statement.withUnsafeBlob(at: 0) { Self.same($0, blob) })
        withExtendedLifetime(connection) {}
    }

    @Test func tenMegabyteBlobRoundTripsWithoutCopy() throws {
        let connection = try Connection.inMemoryWithTable()
        let blob = Self.tenMegabytes
        let insert = try connection.prepare("INSERT INTO t(value) VALUES (?)")
        try blob.withUnsafeBytes { buffer in
            try insert.bindNoCopy(buffer, at: 1)
            try insert.run()
            try insert.clearBindings()
        }
        let read = try connection.fetchValue("SELECT value FROM t")
        #expect(Self.same(read, blob))
    }

    @Test func emptyBlobAndNullAreDistinct() throws {
        let connection = try Connection.inMemoryWithTable()
        try connection.execute("INSERT INTO t(value) VALUES (?)", [.blob([])])
        try connection.execute("INSERT INTO t(value) VALUES (?)", [.null])
        let statement = try connection.prepare("SELECT value, typeof(value) FROM t ORDER BY id")
        #expect(try statement.step())
        #expect(statement.columnType(at: 0) == .blob)
        #expect(!statement.isNull(at: 0))
        #expect(statement.blob(at: 0) == [])
        #expect(try statement.value(at: 0) == .blob([]))
        #expect(try statement.string(at: 1) == "blob")
        #expect(try statement.step())
        #expect(statement.columnType(at: 0) == .null)
        #expect(statement.isNull(at: 0))
        #expect(statement.blob(at: 0) == [])
        #expect(try statement.value(at: 0) == .null)
        #expect(try statement.string(at: 1) == "null")
        withExtendedLifetime(connection) {}
    }

    @Test func emptyStringAndNullAreDistinct() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT ?1, ?2, typeof(?1), typeof(?2), ?1 IS NULL")
        try statement.bind("", at: 1)
        try statement.bindNull(at: 2)
        #expect(try statement.step())
        #expect(statement.columnType(at: 0) == .text)
        #expect(statement.columnType(at: 1) == .null)
        #expect(!statement.isNull(at: 0))
        #expect(statement.isNull(at: 1))
        #expect(try statement.string(at: 0) == "")
        #expect(try statement.string(at: 1) == "")
        #expect(try statement.value(at: 0) == .text(""))
        #expect(try statement.value(at: 1) == .null)
        #expect(try statement.string(at: 2) == "text")
        #expect(try statement.string(at: 3) == "null")
        #expect(statement.int64(at: 4) == 0)
        withExtendedLifetime(connection) {}
    }

    @Test func extremeIntegersRoundTrip() throws {
        let connection = try Connection.inMemoryWithTable()
        for value in [Int64.min, Int64.max, Int64.min + 1, -1, 0] {
            try connection.execute("INSERT INTO t(value) VALUES (?)", [.integer(value)])
        }
        let read = try connection.fetchRows("SELECT value, typeof(value) FROM t ORDER BY id").rows
        #expect(read.map { $0[0] } == [.integer(.min), .integer(.max), .integer(.min + 1), .integer(-1), .integer(0)])
        #expect(read.allSatisfy { $0[1] == "integer" })

        let statement = try connection.prepare("SELECT ?1, ?2")
        try statement.bind(Int64.min, at: 1)
        try statement.bind(Int.max, at: 2)
        #expect(try statement.step())
        #expect(statement.int64(at: 0) == .min)
        #expect(statement.int(at: 1) == .max)
        withExtendedLifetime(connection) {}
    }

    @Test func nanIsStoredAsNullAndInfinitiesRoundTrip() throws {
        let connection = try Connection.inMemoryWithTable()
        for value in [Double.nan, .infinity, -.infinity, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude] {
            try connection.execute("INSERT INTO t(value) VALUES (?)", [.real(value)])
        }
        let rows = try connection.fetchRows("SELECT value, typeof(value) FROM t ORDER BY id").rows
        #expect(rows[0] == [.null, "null"])
        #expect(rows[1] == [.real(.infinity), "real"])
        #expect(rows[2] == [.real(-.infinity), "real"])
        #expect(rows[3][1] == "real")
        #expect(rows[4] == [.real(.leastNonzeroMagnitude), "real"])
        #expect(rows[5] == [.real(.greatestFiniteMagnitude), "real"])

        let statement = try connection.prepare("SELECT ?1, ?2, ?2 > 1e308")
        try statement.bind(Double.nan, at: 1)
        try statement.bind(Double.infinity, at: 2)
        #expect(try statement.step())
        #expect(statement.isNull(at: 0))
        #expect(statement.double(at: 1) == .infinity)
        #expect(statement.int64(at: 2) == 1)
        withExtendedLifetime(connection) {}
    }

    @Test func unicodeTextRoundTrips() throws {
        let connection = try Connection.inMemoryWithTable()
        let text = "Zoë 🚀 ﷽ e\u{301} 中文 \u{FEFF}"
        try connection.execute("INSERT INTO t(value) VALUES (?)", [.text(text)])
        #expect(try connection.fetchValue("SELECT value FROM t") == .text(text))
        #expect(try connection.fetchValue("SELECT value FROM t WHERE value = ?", [.text(text)]) == .text(text))
    }
}
