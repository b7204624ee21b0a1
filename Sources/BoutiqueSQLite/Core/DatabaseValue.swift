/// One SQLite value: the five storage classes.
///
/// ```swift
/// let value: DatabaseValue = .text("hello")
/// ```
public enum DatabaseValue: Hashable, Sendable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// An IEEE 754 double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Bytes, stored as they are.
    case blob([UInt8])

    /// The storage class of the value.
    public var storageClass: StorageClass {
        switch self {
        case .null: .null
        case .integer: .integer
        case .real: .real
        case .text: .text
        case .blob: .blob
        }
    }

    /// `true` for ``null``.
    public var isNull: Bool { if case .null = self { true } else { false } }
}

/// SQLite's storage classes, as `sqlite3_column_type` reports them.
public enum StorageClass: Int32, Hashable, Sendable, CustomStringConvertible {
    /// `SQLITE_INTEGER`: a signed integer.
    case integer = 1
    /// `SQLITE_FLOAT`: a floating-point number.
    case real = 2
    /// `SQLITE_TEXT`: text.
    case text = 3
    /// `SQLITE_BLOB`: bytes.
    case blob = 4
    /// `SQLITE_NULL`: no value.
    case null = 5

    public var description: String {
        switch self {
        case .integer: "INTEGER"
        case .real: "REAL"
        case .text: "TEXT"
        case .blob: "BLOB"
        case .null: "NULL"
        }
    }
}

extension DatabaseValue: CustomStringConvertible {
    /// A readable rendering: text as is, blobs as `x'…'` hex, NULL as `NULL`.
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value): return value
        case .blob(let bytes):
            let digits = Array("0123456789abcdef".utf8)
            var hex = [UInt8]()
            hex.reserveCapacity(bytes.count * 2)
            for byte in bytes {
                hex.append(digits[Int(byte >> 4)])
                hex.append(digits[Int(byte & 0x0F)])
            }
            return "x'" + String(decoding: hex, as: UTF8.self) + "'"
        }
    }
}

extension DatabaseValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(stringLiteral value: String) { self = .text(value) }
}
