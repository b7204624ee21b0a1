/// A ``/BoutiqueSQLite/DatabaseValue`` as JSON carries it: `{"t":"i","v":42}`, with blobs in base64 and reals by
/// their bit pattern, so that every value comes back exactly as it went.
struct WireValue: Codable, Hashable, Sendable {
    let value: DatabaseValue

    init(_ value: DatabaseValue) { self.value = value }

    private enum CodingKeys: String, CodingKey { case t, v }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .t) {
        case "n": value = .null
        case "i": value = .integer(try container.decode(Int64.self, forKey: .v))
        case "r": value = .real(Double(bitPattern: try container.decode(UInt64.self, forKey: .v)))
        case "s": value = .text(try container.decode(String.self, forKey: .v))
        case "b":
            guard let bytes = Base64.decode(try container.decode(String.self, forKey: .v)) else {
                throw DecodingError.dataCorruptedError(forKey: .v, in: container, debugDescription: "not base64")
            }
            value = .blob(bytes)
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .t, in: container, debugDescription: "unknown value type \(other)")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch value {
        case .null: try container.encode("n", forKey: .t)
        case .integer(let number):
            try container.encode("i", forKey: .t)
            try container.encode(number, forKey: .v)
        case .real(let number):
            try container.encode("r", forKey: .t)
            try container.encode(number.bitPattern, forKey: .v)
        case .text(let text):
            try container.encode("s", forKey: .t)
            try container.encode(text, forKey: .v)
        case .blob(let bytes):
            try container.encode("b", forKey: .t)
            try container.encode(Base64.encode(bytes), forKey: .v)
        }
    }
}

/// Base64 without Foundation, so the core stays small.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    package static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let b0 = UInt32(bytes[index])
            let b1 = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let b2 = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let triple = (b0 << 16) | (b1 << 8) | b2
            out.append(alphabet[Int((triple >> 18) & 63)])
            out.append(alphabet[Int((triple >> 12) & 63)])
            out.append(index + 1 < bytes.count ? alphabet[Int((triple >> 6) & 63)] : UInt8(ascii: "="))
            out.append(index + 2 < bytes.count ? alphabet[Int(triple & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    package static func decode(_ text: String) -> [UInt8]? {
        var lookup = [Int16](repeating: -1, count: 256)
        for (index, byte) in alphabet.enumerated() { lookup[Int(byte)] = Int16(index) }
        var out: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "=") { break }
            let digit = lookup[Int(byte)]
            guard digit >= 0 else { return nil }
            buffer = (buffer << 6) | UInt32(digit)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return out
    }
}
