import BoutiqueSQLite
import Foundation

enum RecordHex {
    /// The bytes of a hex string; `nil` for an odd length or a non-hex digit.
    static func bytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    static func string(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// Value lists compared exactly: reals by their bits, so that `-0.0` and `0.0` differ.
func recordIdentical(_ lhs: [DatabaseValue], _ rhs: [DatabaseValue]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    return zip(lhs, rhs).allSatisfy { pair in
        switch pair {
        case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern
        default: pair.0 == pair.1
        }
    }
}

/// The outcome of decoding, as a value, so that tests can compare errors and results alike.
func recordDecodeResult(_ bytes: [UInt8]) -> Result<[DatabaseValue], RecordFormatError> {
    do throws(RecordFormatError) {
        return .success(try RecordDecoder.decode(bytes))
    } catch {
        return .failure(error)
    }
}

/// The values the record tests return to again and again: every width boundary of every type.
enum RecordEdgeValues {
    static let integers: [Int64] = {
        var values: [Int64] = [0, 1, -1, 2, Int64.min, Int64.max, Int64.min + 1, Int64.max - 1]
        for bits in [8, 16, 24, 32, 48] {
            let limit = Int64(1) << (bits - 1)
            values += [limit - 1, limit, -limit, -limit - 1]
        }
        return values
    }()

    static let reals: [Double] = [
        0, -0.0, 0.5, -2.5, 1, 2, .pi, 1e308, -1e308, 1e-300, .leastNonzeroMagnitude, .leastNormalMagnitude,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity,
    ]

    static let texts: [String] = [
        "", "x", "it's \"quoted\"", "naïve café", "👩‍💻 🎉", "日本語", "nul\u{0}inside",
        String(repeating: "a", count: 57), String(repeating: "é", count: 4_096), String(repeating: "long ", count: 20_000),
    ]

    static let blobs: [[UInt8]] = [
        [], [0], [0xFF], Array(0...255), (0..<57).map { UInt8($0) }, (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) },
    ]

    static var all: [DatabaseValue] {
        [.null] + integers.map(DatabaseValue.integer) + reals.map(DatabaseValue.real)
            + texts.map(DatabaseValue.text) + blobs.map(DatabaseValue.blob)
    }
}
