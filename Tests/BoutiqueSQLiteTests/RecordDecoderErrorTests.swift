import BoutiqueSQLite
import BoutiqueTestSupport
import Testing

@Suite("Record decoder errors")
struct RecordDecoderErrorTests {
    @Test("an empty record, or one that ends inside the header-size varint")
    func truncatedHeaderSize() {
        #expect(throws: RecordFormatError(.truncatedVarint, at: 0)) { try RecordDecoder.decode([]) }
        #expect(throws: RecordFormatError(.truncatedVarint, at: 0)) { try RecordDecoder.decode([0x81]) }
    }

    @Test("a header size smaller than its own varint")
    func headerSizeTooSmall() {
        #expect(throws: RecordFormatError(.headerSizeTooSmall(declared: 0), at: 0)) { try RecordDecoder.decode([0x00]) }
        #expect(throws: RecordFormatError(.headerSizeTooSmall(declared: 1), at: 0)) {
            try RecordDecoder.decode([0x80, 0x01, 0x00])
        }
    }

    @Test("a header size larger than the record")
    func headerSizeExceedsRecord() {
        #expect(throws: RecordFormatError(.headerSizeExceedsRecord(declared: 5, recordLength: 3), at: 0)) {
            try RecordDecoder.decode([0x05, 0x00, 0x00])
        }
        // The largest header size a varint can state must not overflow anything.
        let huge = [UInt8](repeating: 0xFF, count: 9) + [0x00]
        #expect(throws: RecordFormatError(.headerSizeExceedsRecord(declared: .max, recordLength: 10), at: 0)) {
            try RecordDecoder.decode(huge)
        }
    }

    @Test("a serial type that runs past the end of the header")
    func serialTypeCrossesHeaderEnd() {
        // Header size 2, but the serial type at byte 1 continues into byte 2.
        #expect(throws: RecordFormatError(.serialTypeCrossesHeaderEnd(column: 0), at: 1)) {
            try RecordDecoder.decode([0x02, 0x81, 0x01])
        }
        #expect(throws: RecordFormatError(.serialTypeCrossesHeaderEnd(column: 1), at: 2)) {
            try RecordDecoder.decode([0x03, 0x00, 0xFF])
        }
    }

    @Test("reserved serial types 10 and 11")
    func reservedSerialTypes() {
        #expect(throws: RecordFormatError(.reservedSerialType(10, column: 0), at: 1)) { try RecordDecoder.decode([0x02, 0x0A]) }
        #expect(throws: RecordFormatError(.reservedSerialType(11, column: 1), at: 2)) {
            try RecordDecoder.decode([0x03, 0x00, 0x0B])
        }
        #expect(throws: RecordFormatError(.reservedSerialType(10, column: 0), at: 1)) { try RecordDecoder.serialTypes([0x02, 0x0A]) }
    }

    @Test("a value that runs past the end of the record")
    func truncatedValue() {
        #expect(throws: RecordFormatError(.truncatedValue(column: 0, length: 8, available: 3), at: 2)) {
            try RecordDecoder.decode([0x02, 0x06, 1, 2, 3])
        }
        #expect(throws: RecordFormatError(.truncatedValue(column: 1, length: 4, available: 1), at: 4)) {
            try RecordDecoder.decode([0x03, 0x01, 0x14, 0x07, 0x61])
        }
        // A text length near 2^63 must be compared, not added to an offset.
        let header: [UInt8] = [0x0A] + SQLiteVarint.encode(UInt64.max)
        #expect(throws: RecordFormatError(.truncatedValue(column: 0, length: (UInt64.max - 13) / 2, available: 0), at: 10)) {
            try RecordDecoder.decode(header)
        }
    }

    @Test("bytes left over after the last value")
    func trailingBytes() {
        #expect(throws: RecordFormatError(.trailingBytes(count: 2), at: 3)) { try RecordDecoder.decode([0x02, 0x01, 0x05, 0xAA, 0xBB]) }
        #expect(throws: RecordFormatError(.trailingBytes(count: 1), at: 1)) { try RecordDecoder.decode([0x01, 0x00]) }
    }

    @Test("text that is not UTF-8 is an error, not a repair")
    func invalidUTF8() throws {
        let invalid: [[UInt8]] = [
            [0xFF], [0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x61, 0x80, 0x62],
        ]
        for text in invalid {
            let record: [UInt8] = [0x03, 0x00, UInt8(text.count * 2 + 13)] + text
            #expect(throws: RecordFormatError(.invalidUTF8(column: 1), at: 3), "text \(text)") {
                try RecordDecoder.decode(record)
            }
        }
        // The same bytes as a blob are fine.
        #expect(try RecordDecoder.decode([0x02, 0x0E, 0xFF]) == [.blob([0xFF])])
    }

    @Test("a NaN real decodes as NULL, as SQLite reads it")
    func nanDecodesAsNull() throws {
        #expect(try RecordDecoder.decode([0x02, 0x07, 0x7F, 0xF8, 0, 0, 0, 0, 0, 0]) == [.null])
    }

    @Test("non-canonical but valid records decode")
    func nonCanonicalRecords() throws {
        // SQLite readers accept wider-than-needed integers and a padded header.
        #expect(try RecordDecoder.decode([0x02, 0x06, 0, 0, 0, 0, 0, 0, 0, 0x05]) == [.integer(5)])
        #expect(try RecordDecoder.decode([0x02, 0x01, 0x00]) == [.integer(0)])
        #expect(try RecordDecoder.decode([0x81, 0x00, 0x09] + [UInt8](repeating: 0x00, count: 125)).count == 126)
    }

    @Test("errors name the problem and where it is")
    func messages() {
        let error = RecordFormatError(.reservedSerialType(10, column: 0), at: 1)
        #expect(error.description == "serial type 10 of column 0 is reserved (at byte 1)")
        #expect(RecordFormatError(.invalidUTF8(column: 3), at: 12).description.contains("column 3"))
    }

    @Test("thousands of random byte strings throw or decode, and never crash")
    func randomBytes() {
        var random = SeededRandom(seed: 0x5EED_0004)
        var failures = 0
        for _ in 0..<5_000 {
            let count = Int(random.next() % 48)
            var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            // Half the time, make the header size plausible so that the later checks get exercised.
            if count > 0, random.next() % 2 == 0 { bytes[0] = UInt8(random.next() % UInt64(min(count, 127) + 1)) }
            switch recordDecodeResult(bytes) {
            case .success(let values):
                // Whatever decodes must survive a canonical re-encoding unchanged.
                #expect(recordDecodeResult(RecordEncoder.encode(values)).map { recordIdentical($0, values) } == .success(true))
            case .failure(let error):
                failures += 1
                #expect(error.offset >= 0 && error.offset <= bytes.count, "\(error) for \(RecordHex.string(bytes))")
            }
        }
        #expect(failures > 2_000)
    }

    @Test("random headers over random bodies throw or decode, and never crash")
    func randomStructuredRecords() {
        var random = SeededRandom(seed: 0x5EED_0005)
        for _ in 0..<3_000 {
            var types: [UInt8] = []
            for _ in 0..<(random.next() % 8) {
                SQLiteVarint.append(random.next() % 40, to: &types)
            }
            let body = (0..<(random.next() % 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let record = SQLiteVarint.encode(UInt64(types.count + 1)) + types + body
            if case .failure(let error) = recordDecodeResult(record) {
                #expect(error.offset >= 0 && error.offset <= record.count, "\(error) for \(RecordHex.string(record))")
            }
        }
    }
}
