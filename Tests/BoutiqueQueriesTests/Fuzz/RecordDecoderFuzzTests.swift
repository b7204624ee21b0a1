import BoutiqueSQLite
import BoutiqueTestSupport
import Foundation
import Testing

/// The record decoder reads bytes that other programs wrote. Every input here must either decode or
/// throw a ``RecordFormatError`` pointing inside the input; none may trap.
@Suite("Fuzz: record decoder on damaged records")
struct RecordDecoderFuzzTests {
    /// A random value of any storage class, with integers of every width and text of several scripts.
    static func value(_ random: inout SeededRandom) -> DatabaseValue {
        switch random.below(7) {
        case 0: return .null
        case 1: return .integer(Int64(random.int(in: -1...1)))
        case 2: return .integer(Int64(bitPattern: random.next() >> UInt64(random.below(64))))
        case 3: return .real(Double(bitPattern: random.next()))
        case 4: return .text(HostileStrings.make(&random))
        case 5: return .text(String(repeating: random.pick(["x", "é", "🙂"]), count: random.int(in: 60...300)))
        default: return .blob((0..<random.int(in: 0...200)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        }
    }

    static func record(_ random: inout SeededRandom) -> [UInt8] {
        RecordEncoder.encode((0..<random.int(in: 1...12)).map { _ in value(&random) })
    }

    /// Decodes through every entry point (array, slice with a non-zero start, raw memory) and checks that
    /// they agree and that any error points inside the input.
    static func decodeEverywhere(_ bytes: [UInt8]) -> Result<[DatabaseValue], RecordFormatError> {
        let fromArray = Result { () throws(RecordFormatError) in try RecordDecoder.decode(bytes) }
        let padded = [0xFF] + bytes
        let fromSlice = Result { () throws(RecordFormatError) in try RecordDecoder.decode(padded[1...]) }
        let fromRaw = bytes.withUnsafeBytes { raw in
            Result { () throws(RecordFormatError) in try RecordDecoder.decode(raw) }
        }
        #expect(fromArray.map(identity) == fromSlice.map(identity), "array and slice disagree on \(bytes)")
        #expect(fromArray.map(identity) == fromRaw.map(identity), "array and raw memory disagree on \(bytes)")
        if case .failure(let error) = fromArray {
            #expect(error.offset >= 0 && error.offset <= bytes.count, "\(error) for \(bytes.count) bytes")
        }
        // The header walk alone must not trap either.
        _ = Result { () throws(RecordFormatError) in try RecordDecoder.serialTypes(bytes) }
        return fromArray
    }

    /// Values compared by bit pattern, so that reals such as -0.0 and infinities compare exactly.
    private static func identity(_ values: [DatabaseValue]) -> [String] {
        values.map { value in
            if case .real(let real) = value { return "real \(real.bitPattern)" }
            return "\(value)"
        }
    }

    @Test("every proper prefix of a valid record is an error")
    func truncatedRecords() async {
        var random = SeededRandom(seed: 0xDEC0_0001)
        var prefixes = 0
        for round in 0..<300 {
            if round % 50 == 0 { await Task.yield() }  // the suites share the cooperative pool
            let bytes = Self.record(&random)
            #expect(throws: Never.self) { try RecordDecoder.decode(bytes) }
            // Every cut inside the header, and a sample of cuts inside the body.
            let header = Int(bytes[0] & 0x7F)
            let cuts = Set((0..<min(header + 2, bytes.count)).map { $0 } + (0..<8).map { _ in random.below(bytes.count) })
            for cut in cuts {
                prefixes += 1
                let prefix = Array(bytes[..<cut])
                guard case .failure = Self.decodeEverywhere(prefix) else {
                    Issue.record("a \(cut)-byte prefix of a \(bytes.count)-byte record decoded")
                    continue
                }
            }
        }
        #expect(prefixes > 2_000)
        print("fuzz record decoder: \(prefixes) truncated records rejected")
    }

    @Test("valid records with bytes changed, inserted or removed decode or throw")
    func mutatedRecords() async {
        var random = SeededRandom(seed: 0xDEC0_0002)
        var outcomes = (decoded: 0, rejected: 0)
        for round in 0..<4_000 {
            if round % 50 == 0 { await Task.yield() }  // the suites share the cooperative pool
            var bytes = Self.record(&random)
            for _ in 0..<random.int(in: 1...3) {
                let index = random.below(bytes.count)
                switch random.below(4) {
                case 0: bytes[index] ^= 1 << UInt8(random.below(8))
                case 1: bytes[index] = UInt8(truncatingIfNeeded: random.next())
                case 2: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: index)
                default: if bytes.count > 1 { bytes.remove(at: index) }
                }
            }
            switch Self.decodeEverywhere(bytes) {
            case .success: outcomes.decoded += 1
            case .failure: outcomes.rejected += 1
            }
        }
        // Both outcomes must occur, or the mutations are not reaching the interesting checks.
        #expect(outcomes.decoded > 100 && outcomes.rejected > 100, "\(outcomes)")
        print("fuzz record decoder: 4000 mutated records, \(outcomes.decoded) decoded, \(outcomes.rejected) rejected")
    }

    @Test("huge header sizes and serial types, in nine-byte varints, are errors and do not overflow")
    func hugeVarints() async {
        var random = SeededRandom(seed: 0xDEC0_0003)
        let extremes: [UInt64] = [
            .max, .max - 1, UInt64(Int64.max), UInt64(Int64.max) + 1, UInt64(Int64.max) - 12, UInt64.max - 12, UInt64.max - 13,
            1 << 32, (1 << 32) + 13, (1 << 56) + 12, 0xFF_FFFF_FFFF_FFFF,
        ]
        for round in 0..<3_000 {
            if round % 50 == 0 { await Task.yield() }  // the suites share the cooperative pool
            var record: [UInt8] = []
            var types: [UInt8] = []
            for _ in 0..<random.int(in: 1...4) {
                let type = random.chance(50) ? random.pick(extremes) : random.next() >> UInt64(random.below(64))
                SQLiteVarint.append(type, to: &types)
            }
            let declared: UInt64 = random.chance(70) ? UInt64(types.count + 1) : random.pick(extremes)
            SQLiteVarint.append(declared, to: &record)
            if random.chance(70), declared == UInt64(types.count + 1), record.count > 1 {
                // A header size that takes two bytes shifts the header by one: recompute it.
                record = SQLiteVarint.encode(UInt64(types.count + 2))
            }
            record += types + (0..<random.below(40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            _ = Self.decodeEverywhere(record)
        }
        for type in extremes {
            let record = SQLiteVarint.encode(UInt64(10)) + SQLiteVarint.encode(type) + [0x61, 0x62]
            #expect(throws: RecordFormatError.self) { try RecordDecoder.decode(record) }
        }
    }
}
