import BoutiqueSync
import Foundation
import Testing

/// Snapshot rows packed for the wire (``PackedSnapshotRows``) come back exactly as they went, whatever
/// their stamps, and packed bytes that are not a page are refused with a reason, never a trap.
@Suite struct PackedSnapshotRowsTests {
    static func stamp(_ milliseconds: UInt64, _ replica: String) -> SyncStamp {
        SyncStamp(time: HybridTimestamp(milliseconds: milliseconds, counter: 3), replica: replica)
    }

    /// A row written whole by one insert: every cell shares the existence's stamp, the key column
    /// holds the key.
    static func inserted(_ id: String, title: String, rank: Int64, at stamp: SyncStamp, table: String = "note") -> SnapshotRow {
        SnapshotRow(
            table: table, key: .text(id),
            state: RowRegister(
                existence: ExistenceRegister(exists: true, stamp: stamp),
                cells: [
                    "id": CellRegister(value: .text(id), stamp: stamp), "title": CellRegister(value: .text(title), stamp: stamp),
                    "rank": CellRegister(value: .integer(rank), stamp: stamp),
                ]))
    }

    /// Rows of every shape a page can hold.
    static var mixedPage: [SnapshotRow] {
        let a = stamp(1_700_000_000_000, "replica-a")
        let b = stamp(1_700_000_000_500, "replica-b")
        let c = stamp(1_700_000_001_000, "replica-c")
        var updated = inserted("n2", title: "Later title", rank: 2, at: a)
        // A cell another replica wrote later, and a NULL value (a cell, not a missing one).
        updated.state.cells["title"] = CellRegister(value: .text("Later title"), stamp: b)
        updated.state.cells["body"] = CellRegister(value: .null, stamp: a)
        let deleted = SnapshotRow(
            table: "note", key: .text("n3"),
            state: RowRegister(
                existence: ExistenceRegister(exists: false, stamp: c), lastDelete: c,
                cells: ["id": CellRegister(value: .text("n3"), stamp: a), "title": CellRegister(value: .text("Gone"), stamp: a)]))
        // Only updates seen: no existence, each cell its own stamp, and no `rank` cell at all.
        let updatesOnly = SnapshotRow(
            table: "note", key: .text("n4"),
            state: RowRegister(cells: ["title": CellRegister(value: .text("Orphan update"), stamp: b)]))
        let blobKeyed = SnapshotRow(
            table: "attachment", key: .blob([0, 1, 2, 255]),
            state: RowRegister(
                existence: ExistenceRegister(exists: true, stamp: c),
                cells: [
                    "id": CellRegister(value: .blob([0, 1, 2, 255]), stamp: c), "size": CellRegister(value: .real(-0.5), stamp: c),
                    "data": CellRegister(value: .blob(Array(repeating: 7, count: 300)), stamp: c),
                ]),
            space: .shared(table: "list", key: .text("l1")))
        let privateRow = SnapshotRow(
            table: "note", key: .text("n5"),
            state: RowRegister(existence: ExistenceRegister(exists: true, stamp: a), cells: ["id": CellRegister(value: .text("n5"), stamp: a)]),
            space: .private(user: "ana"))
        return [blobKeyed, inserted("n1", title: "Groceries", rank: 1, at: a), updated, deleted, updatesOnly, privateRow]
    }

    @Test func aPageWithMixedStampsRoundTrips() throws {
        let rows = Self.mixedPage
        #expect(try PackedSnapshotRows(rows).rows() == rows)
        #expect(try PackedSnapshotRows([]).rows() == [])
    }

    @Test func aPackedResponseRoundTripsThroughJSON() throws {
        var response = SnapshotResponse(
            rows: Self.mixedPage, next: SnapshotPosition(table: "note", key: .text("n5")), cursor: 42,
            serverTime: HybridTimestamp(milliseconds: 1_700_000_002_000, counter: 0), totalRows: 6)
        let original = response
        response.packRows()
        #expect(response.rows.isEmpty && response.packedRows != nil)
        var decoded = try SyncJSON.decoder().decode(SnapshotResponse.self, from: try SyncJSON.encoder().encode(response))
        try decoded.unpackRows()
        #expect(decoded == original)
    }

    @Test func aKeyColumnThatDiffersFromTheKeyInOneRowIsSentInEveryRow() throws {
        let stamp = Self.stamp(1_700_000_000_000, "a")
        var odd = Self.inserted("n2", title: "Odd", rank: 2, at: stamp)
        odd.state.cells["id"] = CellRegister(value: .text("not n2"), stamp: stamp)
        let rows = [Self.inserted("n1", title: "One", rank: 1, at: stamp), odd, Self.inserted("n3", title: "Three", rank: 3, at: stamp)]
        #expect(try PackedSnapshotRows(rows).rows() == rows)
    }

    @Test func rowsWrittenWholeTakeAFractionOfTheirJSON() throws {
        let stamp = Self.stamp(1_700_000_000_000, "5B2C0D7E-1F44-4A8B-9C3D-2E6F7A8B9C0D")
        let rows = (0..<1_000).map { Self.inserted("note-\($0)", title: "title \($0)", rank: Int64($0), at: stamp) }
        let json = try SyncJSON.encoder().encode(rows).count
        let packed = try SyncJSON.encoder().encode(PackedSnapshotRows(rows)).count
        // A row is its key and values (about 25 bytes here) and its time (8), in base64: stamps and names go once.
        #expect(packed * 8 < json, "packed \(packed) bytes, JSON \(json)")
        #expect(packed < 1_000 * 60, "\(packed / 1_000) bytes a row")
    }

    // MARK: Bad input

    /// Asserts that `bytes` unpack to a refusal that names the packed page.
    static func expectRefused(_ bytes: [UInt8], _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let rows = try PackedSnapshotRows(bytes: bytes).rows()
            Issue.record("unpacked \(rows.count) rows from bad bytes \(comment?.rawValue ?? "")", sourceLocation: sourceLocation)
        } catch {
            guard case .syncRefused(let reason)? = error as? BoutiqueError else {
                Issue.record("not a refusal: \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(reason.contains("packed snapshot page is malformed"), "\(reason)", sourceLocation: sourceLocation)
        }
    }

    /// Frames as the format lays them out, for pages no server would write.
    static func frames(_ records: [[DatabaseValue]]) -> [UInt8] {
        var bytes: [UInt8] = []
        for values in records {
            let record = RecordEncoder.encode(values)
            bytes += SQLiteVarint.encode(UInt64(record.count)) + record
        }
        return bytes
    }

    static let dictionary: [DatabaseValue] = [1, 1, "note", .null, 2, "id", "title", 1, "r", 0]

    @Test func badPagesAreRefusedWithAReason() throws {
        let row: [DatabaseValue] = [0, "n1", .null, 1, 5, 0, .null, .null, "n1", "Title"]
        #expect(try PackedSnapshotRows(bytes: Self.frames([Self.dictionary, row])).rows().count == 1, "the well-formed page reads")

        Self.expectRefused([], "no dictionary")
        Self.expectRefused(Self.frames([[2, 0, 0, 0]]), "an unknown format")
        Self.expectRefused(Self.frames([[1, 1_000_000_000, "note"]]), "a table count larger than the frame")
        Self.expectRefused(Self.frames([[1, -1, 0, 0]]), "a negative count")
        Self.expectRefused(Self.frames([[1, 1, "note", 9, 2, "id", "title", 1, "r", 0], row]), "a key column past the columns")
        Self.expectRefused(Self.frames([Self.dictionary, [3] + row.dropFirst()]), "a table index past the tables")
        Self.expectRefused(Self.frames([Self.dictionary, [0, "n1", .null, 1, 5, 7, .null, .null, "n1", "T"]]), "a replica index past the replicas")
        Self.expectRefused(Self.frames([Self.dictionary, [0, "n1", 0, 1, 5, 0, .null, .null, "n1", "T"]]), "a space index with no spaces")
        Self.expectRefused(Self.frames([Self.dictionary, [0, .null, .null, 1, 5, 0, .null, .null, "n1", "T"]]), "a NULL key")
        Self.expectRefused(Self.frames([Self.dictionary, [0, "n1", .null, 2, 5, 0, .null, .null, "n1", "T"]]), "existence 2")
        Self.expectRefused(Self.frames([Self.dictionary, [0, "n1", .null, 1, "noon", 0, .null, .null, "n1", "T"]]), "a time that is text")
        Self.expectRefused(Self.frames([Self.dictionary, [0, "n1", .null, 1, 5, 0, .null, .null, "n1"]]), "a row short of a value")
        Self.expectRefused(Self.frames([Self.dictionary, [0, "n1", .null, 1, 5, 0, .null, .null, "n1", "T", 1, 5]]), "half a stamp triple")
        Self.expectRefused(Self.frames([Self.dictionary, [0, "n1", .null, .null, .null, .null, .null, .null, "n1", "T"]]), "cells without a stamp")
        Self.expectRefused(Self.frames([Self.dictionary, [0, "n1", .null, 1, 5, 0, 6, .null, "n1", "T"]]), "half a delete stamp")
        Self.expectRefused([0x05, 0x02], "a frame running past the end")
        Self.expectRefused([0xFF], "a length cut short")
        Self.expectRefused(Self.frames([Self.dictionary]) + [0x03, 0x02, 0x0D, 0x01], "a frame that is not a record")
    }

    @Test func everyTruncationAndEveryFlippedByteOfARealPageIsReadOrRefusedWithoutATrap() throws {
        let bytes = PackedSnapshotRows(Self.mixedPage).bytes
        for length in 0..<bytes.count {
            do { _ = try PackedSnapshotRows(bytes: Array(bytes.prefix(length))).rows() } catch {
                guard case .syncRefused? = error as? BoutiqueError else { throw error }
            }
        }
        for index in bytes.indices {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var bad = bytes
                bad[index] ^= flip
                do { _ = try PackedSnapshotRows(bytes: bad).rows() } catch {
                    guard case .syncRefused? = error as? BoutiqueError else { throw error }
                }
            }
        }
    }

    @Test func packedRowsThatAreNotBase64AreADecodingError() {
        let body = Data(#"{"rows":[],"packedRows":"not*base64","cursor":1,"serverTime":5}"#.utf8)
        #expect(throws: DecodingError.self) { try SyncJSON.decoder().decode(SnapshotResponse.self, from: body) }
    }
}
