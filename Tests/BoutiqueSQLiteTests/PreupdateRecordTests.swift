import Testing

@testable import BoutiqueSQLite

/// ``PreupdateChange/appendRecord(old:realAffinity:to:)`` writes the record ``RecordEncoder`` writes.
@Suite("Preupdate hook: records")
struct PreupdateRecordTests {
    /// One value of every kind, with the widths where the integer encoding changes.
    static let row: [DatabaseValue] = [
        .integer(0), .integer(1), .integer(-1), .integer(127), .integer(128), .integer(-32769), .integer(8_388_608),
        .integer(Int64.max), .integer(Int64.min), .real(2.5), .text(""), .text("é ' \"; -- 😀"), .blob([]),
        .blob([0, 1, 255]), .null,
    ]

    @Test func newAndOldRowsEncodeAsTheRecordEncoderEncodesThem() throws {
        let connection = try Connection.inMemory()
        let columns = (0..<Self.row.count).map { "c\($0)" }
        try connection.execute("CREATE TABLE t(\(columns.joined(separator: ", ")))")
        var records: [[UInt8]] = []
        try connection.setPreupdateHook { change in
            var bytes: [UInt8] = [7]  // appended after what is there
            let flags = Array(repeating: false, count: Self.row.count)
            if change.kind != .delete { #expect(change.appendRecord(old: false, realAffinity: flags, to: &bytes)) }
            if change.kind != .insert { #expect(change.appendRecord(old: true, realAffinity: flags, to: &bytes)) }
            #expect(bytes.first == 7)
            records.append(Array(bytes.dropFirst()))
        }
        let placeholders = Array(repeating: "?", count: Self.row.count).joined(separator: ", ")
        try connection.execute("INSERT INTO t VALUES (\(placeholders))", Self.row)
        try connection.execute("DELETE FROM t")
        let expected = RecordEncoder.encode(Self.row)
        #expect(records == [expected, expected])
    }

    @Test func aWholeNumberInARealColumnIsWrittenAsAReal() throws {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE t(a REAL, b INTEGER)")
        var record: [UInt8] = []
        try connection.setPreupdateHook { change in
            _ = change.appendRecord(old: false, realAffinity: [true, false], to: &record)
        }
        try connection.execute("INSERT INTO t VALUES (3, 3)")
        #expect(record == RecordEncoder.encode([.real(3), .integer(3)]))
    }

    @Test func aMismatchedLayoutOrAFinishedHookCallAppendsNothing() throws {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE t(a, b)")
        var kept: PreupdateChange?
        var tooMany = true
        try connection.setPreupdateHook { change in
            var bytes: [UInt8] = []
            tooMany = change.appendRecord(old: false, realAffinity: [false, false, false], to: &bytes) || !bytes.isEmpty
            kept = change
        }
        try connection.execute("INSERT INTO t VALUES (1, 2)")
        #expect(!tooMany)
        var late: [UInt8] = []
        #expect(kept?.appendRecord(old: false, realAffinity: [false, false], to: &late) == false)
        #expect(late.isEmpty)
    }
}
