import BoutiqueSQLite
import BoutiqueTestSupport
import Foundation
import Testing

@Suite("Record round trips")
struct RecordRoundTripTests {
    @Test("every edge value on its own")
    func eachEdgeValue() throws {
        for value in RecordEdgeValues.all {
            let decoded = try RecordDecoder.decode(RecordEncoder.encode([value]))
            #expect(recordIdentical(decoded, [value]), "round trip of \(String(describing: value).prefix(80))")
        }
    }

    @Test("all edge values in one record, whose header takes a two-byte size")
    func allEdgeValuesTogether() throws {
        let values = RecordEdgeValues.all
        let record = RecordEncoder.encode(values)
        #expect(try recordIdentical(RecordDecoder.decode(record), values))
        #expect(try RecordDecoder.serialTypes(record) == values.map(SerialType.init(for:)))
    }

    @Test("130 to 300 columns of mixed values")
    func wideRecords() throws {
        var random = SeededRandom(seed: 0x5EED_0002)
        let pool = RecordEdgeValues.all.filter { value in
            // Keep wide records small: the huge text and blob have their own test.
            if case .text(let text) = value { return text.utf8.count < 1_000 }
            if case .blob(let blob) = value { return blob.count < 1_000 }
            return true
        }
        for columns in [130, 131, 200, 300] {
            let values = (0..<columns).map { _ in pool[Int(random.next() % UInt64(pool.count))] }
            let record = RecordEncoder.encode(values)
            #expect(record[0] & 0x80 != 0, "a \(columns)-column header size takes two bytes")
            #expect(try recordIdentical(RecordDecoder.decode(record), values))
        }
    }

    @Test("large text and blobs")
    func largeValues() throws {
        let text = String(repeating: "ünïcødé ✓ ", count: 50_000)
        let blob = (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        let values: [DatabaseValue] = [.text(text), .blob(blob), .integer(42)]
        let record = RecordEncoder.encode(values)
        #expect(record.count == RecordEncoder.encodedLength(values))
        #expect(try RecordDecoder.decode(record) == values)
    }

    @Test("random value lists")
    func randomValueLists() throws {
        var random = SeededRandom(seed: 0x5EED_0003)
        for _ in 0..<2_000 {
            let count = Int(random.next() % 20)
            let values = (0..<count).map { _ in randomValue(&random) }
            let record = RecordEncoder.encode(values)
            #expect(try recordIdentical(RecordDecoder.decode(record), values))
        }
    }

    @Test("decoding reads any contiguous or non-contiguous collection of bytes")
    func collectionInputs() throws {
        let values: [DatabaseValue] = [.integer(-7), .real(1.25), .text("ok"), .blob([9, 8]), .null]
        let record = RecordEncoder.encode(values)
        #expect(try RecordDecoder.decode(ArraySlice(record)) == values)
        #expect(try RecordDecoder.decode(([0xEE] + record)[1...]) == values)
        #expect(try RecordDecoder.decode(Data(record)) == values)
        #expect(try RecordDecoder.decode(AnyCollection(record)) == values)
        let fromRaw = try record.withUnsafeBytes { raw throws(RecordFormatError) in try RecordDecoder.decode(raw) }
        #expect(fromRaw == values)
    }

    private func randomValue(_ random: inout SeededRandom) -> DatabaseValue {
        switch random.next() % 6 {
        case 0:
            return .null
        case 1:
            // Spread over every width: shift a random value right by a random amount.
            let magnitude = Int64(bitPattern: random.next() >> (random.next() % 64))
            return .integer(random.next() % 2 == 0 ? magnitude : ~magnitude)
        case 2:
            let real = Double(bitPattern: random.next())
            return .real(real.isNaN ? 0.25 : real)
        case 3:
            let scalars = (0..<(random.next() % 12)).compactMap { _ in
                Unicode.Scalar(UInt32(truncatingIfNeeded: random.next() % 0x11_0000))
            }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            return .text(text)
        case 4:
            return .blob((0..<(random.next() % 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        default:
            return .integer(Int64(random.next() % 3))  // 0, 1 and 2: the header-only serial types and their neighbour
        }
    }
}
