import BoutiqueSQLite
import Testing

@Suite("Record encoder")
struct RecordEncoderTests {
    @Test("a small record, byte by byte")
    func smallRecord() {
        #expect(RecordEncoder.encode([.integer(1), .null, .text("x")]) == [0x04, 0x09, 0x00, 0x0F, 0x78])
        #expect(RecordEncoder.encode([]) == [0x01])
        #expect(RecordEncoder.encode([.blob([])]) == [0x02, 0x0C])
        #expect(RecordEncoder.encode([.text("")]) == [0x02, 0x0D])
        #expect(RecordEncoder.encode([.real(0.5)]) == [0x02, 0x07, 0x3F, 0xE0, 0, 0, 0, 0, 0, 0])
        #expect(RecordEncoder.encode([.real(-0.0)]) == [0x02, 0x07, 0x80, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test("integers take the narrowest serial type, 0 and 1 none at all")
    func integerWidths() {
        let cases: [(Int64, UInt64, [UInt8])] = [
            (0, 8, []), (1, 9, []), (-1, 1, [0xFF]), (2, 1, [0x02]),
            (127, 1, [0x7F]), (128, 2, [0x00, 0x80]), (-128, 1, [0x80]), (-129, 2, [0xFF, 0x7F]),
            (32_767, 2, [0x7F, 0xFF]), (32_768, 3, [0x00, 0x80, 0x00]), (-32_768, 2, [0x80, 0x00]),
            (-32_769, 3, [0xFF, 0x7F, 0xFF]),
            (8_388_607, 3, [0x7F, 0xFF, 0xFF]), (8_388_608, 4, [0x00, 0x80, 0x00, 0x00]),
            (-8_388_608, 3, [0x80, 0x00, 0x00]), (-8_388_609, 4, [0xFF, 0x7F, 0xFF, 0xFF]),
            (2_147_483_647, 4, [0x7F, 0xFF, 0xFF, 0xFF]), (2_147_483_648, 5, [0, 0, 0x80, 0, 0, 0]),
            (-2_147_483_648, 4, [0x80, 0, 0, 0]), (-2_147_483_649, 5, [0xFF, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF]),
            (140_737_488_355_327, 5, [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
            (140_737_488_355_328, 6, [0, 0, 0x80, 0, 0, 0, 0, 0]),
            (-140_737_488_355_328, 5, [0x80, 0, 0, 0, 0, 0]),
            (-140_737_488_355_329, 6, [0xFF, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
            (.max, 6, [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
            (.min, 6, [0x80, 0, 0, 0, 0, 0, 0, 0]),
        ]
        for (value, serialType, body) in cases {
            #expect(SerialType.integer(value).rawValue == serialType, "serial type of \(value)")
            #expect(RecordEncoder.encode([.integer(value)]) == [0x02, UInt8(serialType)] + body, "record of \(value)")
        }
    }

    @Test("text and blob serial types count UTF-8 bytes")
    func textAndBlobSerialTypes() {
        #expect(SerialType(for: .text("é")).rawValue == 2 * 2 + 13)
        #expect(SerialType(for: .text("👩‍💻")).rawValue == 11 * 2 + 13)
        #expect(SerialType(for: .blob([1, 2, 3])).rawValue == 3 * 2 + 12)
        #expect(SerialType(rawValue: 17).contentLength == 2)
        #expect(SerialType(rawValue: 18).contentLength == 3)
        #expect(SerialType(rawValue: 10).contentLength == nil)
        #expect(SerialType(rawValue: 11).isReserved)
        // A text of 57 bytes has serial type 127, the largest that fits one varint byte.
        let record = RecordEncoder.encode([.text(String(repeating: "a", count: 57))])
        #expect(Array(record.prefix(2)) == [0x02, 0x7F])
        let longer = RecordEncoder.encode([.text(String(repeating: "a", count: 58))])
        #expect(Array(longer.prefix(3)) == [0x03, 0x81, 0x01])
    }

    @Test("NaN is written as NULL, as SQLite and Turso store it")
    func nanIsNull() {
        #expect(RecordEncoder.encode([.real(.nan)]) == [0x02, 0x00])
        #expect(SerialType(for: .real(.nan)) == .null)
    }

    @Test("the header size counts its own varint when it crosses 127 bytes")
    func headerSizeBoundary() throws {
        // n NULL columns: n serial-type bytes, plus the header-size varint.
        let cases: [(columns: Int, headerPrefix: [UInt8])] = [
            (126, [0x7F]),  // 126 + 1 = 127: one byte
            (127, [0x81, 0x01]),  // 127 + 1 = 128 needs two bytes, so the size is 129
            (128, [0x81, 0x02]),
            (16_381, [0xFF, 0x7F]),  // 16381 + 2 = 16383: still two bytes
            (16_382, [0x81, 0x80, 0x01]),  // 16382 + 2 = 16384 needs three, so 16385
        ]
        for (columns, headerPrefix) in cases {
            let values = [DatabaseValue](repeating: .null, count: columns)
            let record = RecordEncoder.encode(values)
            #expect(Array(record.prefix(headerPrefix.count)) == headerPrefix, "\(columns) columns")
            #expect(record.count == columns + headerPrefix.count)
            #expect(RecordEncoder.encodedLength(values) == record.count)
            #expect(try RecordDecoder.decode(record) == values)
        }
    }

    @Test("appending reuses the caller's buffer and leaves its contents alone")
    func appendToBuffer() throws {
        var buffer: [UInt8] = [0xAB, 0xCD]
        RecordEncoder.append([.integer(300), .text("hi")], to: &buffer)
        #expect(Array(buffer.prefix(2)) == [0xAB, 0xCD])
        #expect(try RecordDecoder.decode(buffer.dropFirst(2)) == [.integer(300), .text("hi")])
    }

    @Test("encodedLength agrees with encode for every edge value")
    func encodedLengthAgrees() {
        for value in RecordEdgeValues.all {
            #expect(RecordEncoder.encodedLength([value]) == RecordEncoder.encode([value]).count)
        }
        let all = RecordEdgeValues.all
        #expect(RecordEncoder.encodedLength(all) == RecordEncoder.encode(all).count)
    }
}
