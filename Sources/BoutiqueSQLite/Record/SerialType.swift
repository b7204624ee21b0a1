/// The header code that says how one value of a SQLite record is stored, and how many bytes it takes.
///
/// | code | value |
/// |---|---|
/// | 0 | NULL |
/// | 1, 2, 3, 4, 5, 6 | big-endian two's-complement integer of 1, 2, 3, 4, 6, 8 bytes |
/// | 7 | big-endian IEEE-754 double |
/// | 8, 9 | the integers 0 and 1, with no body bytes |
/// | 10, 11 | reserved |
/// | N ≥ 12, even | blob of (N − 12) / 2 bytes |
/// | N ≥ 13, odd | text of (N − 13) / 2 bytes |
///
/// ```swift
/// SerialType(for: .integer(300))          // .int16
/// SerialType(for: .text("hi")).rawValue   // 17
/// SerialType(rawValue: 17).contentLength  // 2
/// ```
public struct SerialType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as it appears, as a varint, in the record header.
    public let rawValue: UInt64

    /// The serial type with header code `rawValue`.
    @inlinable
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    // Computed rather than stored: a stored static is read through a one-time-initialization accessor
    // on every use, which showed in profiles of record encoding; these fold to constants.
    /// Code 0: NULL, no body bytes.
    @inlinable public static var null: SerialType { SerialType(rawValue: 0) }
    /// Code 1: a 1-byte integer.
    @inlinable public static var int8: SerialType { SerialType(rawValue: 1) }
    /// Code 2: a 2-byte big-endian integer.
    @inlinable public static var int16: SerialType { SerialType(rawValue: 2) }
    /// Code 3: a 3-byte big-endian integer.
    @inlinable public static var int24: SerialType { SerialType(rawValue: 3) }
    /// Code 4: a 4-byte big-endian integer.
    @inlinable public static var int32: SerialType { SerialType(rawValue: 4) }
    /// Code 5: a 6-byte big-endian integer.
    @inlinable public static var int48: SerialType { SerialType(rawValue: 5) }
    /// Code 6: an 8-byte big-endian integer.
    @inlinable public static var int64: SerialType { SerialType(rawValue: 6) }
    /// Code 7: an 8-byte big-endian IEEE 754 double.
    @inlinable public static var float64: SerialType { SerialType(rawValue: 7) }
    /// The integer 0, stored in the header alone.
    @inlinable public static var zero: SerialType { SerialType(rawValue: 8) }
    /// The integer 1, stored in the header alone.
    @inlinable public static var one: SerialType { SerialType(rawValue: 9) }

    /// The serial type of a blob of `byteCount` bytes.
    @inlinable
    public static func blob(byteCount: Int) -> SerialType {
        SerialType(rawValue: UInt64(byteCount) &* 2 &+ 12)
    }

    /// The serial type of text whose UTF-8 form takes `byteCount` bytes.
    @inlinable
    public static func text(byteCount: Int) -> SerialType {
        SerialType(rawValue: UInt64(byteCount) &* 2 &+ 13)
    }

    /// The narrowest serial type that holds `value`, as SQLite and Turso write it.
    ///
    /// 0 and 1 take no body bytes (serial types 8 and 9, allowed since schema format 4, which every
    /// current database uses); other values take the fewest bytes that keep their sign.
    @inlinable
    public static func integer(_ value: Int64) -> SerialType {
        if value == 0 { return .zero }
        if value == 1 { return .one }
        // For a negative value, ~value has the same number of significant bits as the value.
        let magnitude = UInt64(bitPattern: value < 0 ? ~value : value)
        if magnitude <= 0x7F { return .int8 }
        if magnitude <= 0x7FFF { return .int16 }
        if magnitude <= 0x7F_FFFF { return .int24 }
        if magnitude <= 0x7FFF_FFFF { return .int32 }
        if magnitude <= 0x7FFF_FFFF_FFFF { return .int48 }
        return .int64
    }

    /// The serial type the encoder writes for `value`.
    ///
    /// A NaN real is written as NULL: SQLite and Turso never store NaN, they turn it into NULL.
    @inlinable
    public init(for value: DatabaseValue) {
        switch value {
        case .null: self = .null
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = real.isNaN ? .null : .float64
        case .text(let text): self = .text(byteCount: text.utf8.count)
        case .blob(let bytes): self = .blob(byteCount: bytes.count)
        }
    }

    /// `true` for 10 and 11, which SQLite reserves and which never appear in a valid record.
    @inlinable
    public var isReserved: Bool { rawValue == 10 || rawValue == 11 }

    /// How many body bytes a value of this type takes; `nil` for the reserved types.
    @inlinable
    public var contentLength: UInt64? {
        switch rawValue {
        case 0, 8, 9: 0
        case 1, 2, 3, 4: rawValue
        case 5: 6
        case 6, 7: 8
        case 10, 11: nil
        default: (rawValue - 12) / 2
        }
    }

    public var description: String {
        switch rawValue {
        case 0: "NULL"
        case 1...6: "INTEGER(\(contentLength ?? 0) bytes)"
        case 7: "REAL"
        case 8: "INTEGER(0)"
        case 9: "INTEGER(1)"
        case 10, 11: "reserved(\(rawValue))"
        default: rawValue % 2 == 0 ? "BLOB(\((rawValue - 12) / 2))" : "TEXT(\((rawValue - 13) / 2))"
        }
    }
}
