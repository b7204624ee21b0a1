import BoutiqueSQLite
import BoutiqueTestSupport
import Testing

@Suite("SQLite varints")
struct RecordVarintTests {
    @Test("known encodings")
    func knownEncodings() throws {
        let cases: [(UInt64, [UInt8])] = [
            (0, [0x00]),
            (1, [0x01]),
            (127, [0x7F]),
            (128, [0x81, 0x00]),
            (300, [0x82, 0x2C]),
            (16_383, [0xFF, 0x7F]),
            (16_384, [0x81, 0x80, 0x00]),
            ((1 << 56) - 1, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]),
            // From 2^56 on, the ninth byte carries a full 8 bits.
            (1 << 56, [0x80, 0xC0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00]),
            (0x0102_0304_0506_0708, [0x80, 0xC0, 0xC0, 0xB0, 0xA0, 0x94, 0x8C, 0x87, 0x08]),
            (UInt64.max, [UInt8](repeating: 0xFF, count: 9)),
        ]
        for (value, bytes) in cases {
            #expect(SQLiteVarint.encode(value) == bytes, "encoding \(value)")
            let decoded = try SQLiteVarint.decode(bytes)
            #expect(decoded.value == value && decoded.length == bytes.count, "decoding \(bytes)")
        }
        #expect(SQLiteVarint.encode(Int64(-1)) == [UInt8](repeating: 0xFF, count: 9))
    }

    @Test("round trip on both sides of every length boundary")
    func lengthBoundaries() throws {
        for length in 1...8 {
            let largest = (UInt64(1) << UInt64(7 * length)) - 1
            for (value, expectedLength) in [(largest, length), (largest + 1, length + 1)] {
                let bytes = SQLiteVarint.encode(value)
                #expect(bytes.count == expectedLength, "\(value) takes \(bytes.count) bytes")
                #expect(SQLiteVarint.encodedLength(value) == expectedLength)
                let decoded = try SQLiteVarint.decode(bytes)
                #expect(decoded.value == value && decoded.length == expectedLength)
            }
        }
        for value in [UInt64.max, UInt64.max - 1, UInt64(1) << 63, (UInt64(1) << 63) - 1] {
            #expect(try SQLiteVarint.decode(SQLiteVarint.encode(value)).value == value)
            #expect(SQLiteVarint.encodedLength(value) == 9)
        }
    }

    @Test("round trip of random values of every magnitude, signed and unsigned")
    func randomRoundTrip() throws {
        var random = SeededRandom(seed: 0x5EED_0001)
        for _ in 0..<5_000 {
            let value = random.next() >> (random.next() % 64)
            let bytes = SQLiteVarint.encode(value)
            #expect(bytes.count == SQLiteVarint.encodedLength(value))
            let decoded = try SQLiteVarint.decode(bytes)
            #expect(decoded.value == value && decoded.length == bytes.count)

            let signed = Int64(bitPattern: value) * (random.next() % 2 == 0 ? 1 : -1)
            let signedBytes = SQLiteVarint.encode(signed)
            #expect(signedBytes.count == SQLiteVarint.encodedLength(signed))
            #expect(try SQLiteVarint.decode(signedBytes).value == UInt64(bitPattern: signed))
        }
    }

    @Test("decoding at an offset, and appending to a buffer")
    func offsetsAndAppending() throws {
        var buffer: [UInt8] = [0xAA]
        SQLiteVarint.append(300, to: &buffer)
        SQLiteVarint.append(UInt64.max, to: &buffer)
        SQLiteVarint.append(5, to: &buffer)
        #expect(buffer.count == 1 + 2 + 9 + 1)
        #expect(try SQLiteVarint.decode(buffer, at: 1) == (300, 2))
        #expect(try SQLiteVarint.decode(buffer, at: 3) == (UInt64.max, 9))
        #expect(try SQLiteVarint.decode(buffer, at: 12) == (5, 1))
    }

    @Test("never reads more than nine bytes")
    func atMostNineBytes() throws {
        // Ten bytes with the continuation bit set: the ninth ends the varint whatever it holds.
        let bytes = [UInt8](repeating: 0xFF, count: 10)
        let decoded = try SQLiteVarint.decode(bytes)
        #expect(decoded.length == 9)
        #expect(decoded.value == UInt64.max)
    }

    @Test("a varint cut short throws instead of reading past the end")
    func truncated() {
        for bytes: [UInt8] in [[], [0x81], [0xFF, 0xFF], [UInt8](repeating: 0x80, count: 8)] {
            #expect(throws: RecordFormatError(.truncatedVarint, at: 0)) { try SQLiteVarint.decode(bytes) }
        }
        #expect(throws: RecordFormatError(.truncatedVarint, at: 2)) { try SQLiteVarint.decode([0x01, 0x02, 0x83], at: 2) }
        #expect(throws: RecordFormatError(.truncatedVarint, at: 5)) { try SQLiteVarint.decode([0x01], at: 5) }
        #expect(throws: RecordFormatError(.truncatedVarint, at: -1)) { try SQLiteVarint.decode([0x01], at: -1) }
    }
}
