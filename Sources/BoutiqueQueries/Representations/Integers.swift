import BoutiqueSQLite

extension RowDecoder {
    /// The current column as a 64-bit integer; NULL, and text or blobs that are not numbers, are errors.
    ///
    /// SQLite converts what it can (`'12'` reads as 12, `2.0` as 2). The storage class is looked at only
    /// when the value reads as zero, the one result a failed conversion gives, so the common path costs
    /// a single call.
    @inlinable
    public mutating func decodeInt64(expected: @autoclosure () -> String) throws(BoutiqueError) -> Int64 {
        let value = statement.int64(at: columnIndex)
        if value == 0 { try checkNumeric(expected: expected()) }
        columnIndex += 1
        return value
    }

    /// The current column as a double, with the same rules as ``decodeInt64(expected:)``.
    @inlinable
    public mutating func decodeDouble(expected: @autoclosure () -> String) throws(BoutiqueError) -> Double {
        let value = statement.double(at: columnIndex)
        if value == 0 { try checkNumeric(expected: expected()) }
        columnIndex += 1
        return value
    }

    /// Throws unless the current value is a number, or text that reads as one: a zero read from
    /// anything else was a failed conversion.
    @usableFromInline
    func checkNumeric(expected: String) throws(BoutiqueError) {
        switch currentStorageClass {
        case .integer, .real: return
        case .text where Double(String(decoding: statement.textBytes(at: columnIndex), as: UTF8.self)) != nil: return
        default: throw failure(expected: expected)
        }
    }
}

/// Integers are stored as SQLite INTEGER (64-bit); narrower types check that the stored value fits.
public protocol QueryBindableInteger: QueryBindable, FixedWidthInteger {}

extension QueryBindableInteger {
    /// Reads an INTEGER that fits the type; NULL, non-numbers and values out of range are errors.
    @inlinable
    public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> Self {
        let wide = try decoder.decodeInt64(expected: "\(Self.self)")
        guard let value = Self(exactly: wide) else {
            decoder.columnIndex -= 1
            throw decoder.failure(expected: "\(Self.self)", found: "INTEGER \(wide), out of range")
        }
        return value
    }

    /// The value as a 64-bit INTEGER.
    @inlinable
    public static func encode(_ output: Self) -> DatabaseValue {
        // UInt64 values past Int64.max keep their bit pattern; decoding checks the range.
        .integer(Int64(truncatingIfNeeded: output))
    }

    /// Integers are declared `INTEGER`.
    public static var sqlType: SQLType { .integer }

    /// Binds the value as a 64-bit integer, without going through a ``/BoutiqueSQLite/DatabaseValue``.
    @inlinable
    public static func bind(_ output: Self, to statement: Statement, at index: Int32) throws(SQLiteError) {
        try statement.bind(Int64(truncatingIfNeeded: output), at: index)
    }
}

extension Int: QueryBindableInteger {
    // The common case skips the range check entirely.
    @inlinable
    public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> Int {
        Int(truncatingIfNeeded: try decoder.decodeInt64(expected: "Int"))
    }

    @inlinable
    public static func bind(_ output: Int, to statement: Statement, at index: Int32) throws(SQLiteError) {
        try statement.bind(Int64(output), at: index)
    }
}
extension Int64: QueryBindableInteger {
    @inlinable
    public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> Int64 {
        try decoder.decodeInt64(expected: "Int64")
    }

    @inlinable
    public static func bind(_ output: Int64, to statement: Statement, at index: Int32) throws(SQLiteError) {
        try statement.bind(output, at: index)
    }
}
extension Int8: QueryBindableInteger {}
extension Int16: QueryBindableInteger {}
extension Int32: QueryBindableInteger {}
extension UInt: QueryBindableInteger {}
extension UInt8: QueryBindableInteger {}
extension UInt16: QueryBindableInteger {}
extension UInt32: QueryBindableInteger {}
extension UInt64: QueryBindableInteger {
    /// UInt64 is stored with its bit pattern in a signed INTEGER, so every value round-trips.
    @inlinable
    public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> UInt64 {
        UInt64(bitPattern: try decoder.decodeInt64(expected: "UInt64"))
    }

    /// The unsigned number, not the stored bit pattern.
    public static var jsonValueForm: JSONValueForm { .unsignedInteger }
}

extension Bool: QueryBindable {
    @inlinable
    public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> Bool {
        try decoder.decodeInt64(expected: "Bool") != 0
    }

    @inlinable
    public static func encode(_ output: Bool) -> DatabaseValue { .integer(output ? 1 : 0) }

    @inlinable
    public static func bind(_ output: Bool, to statement: Statement, at index: Int32) throws(SQLiteError) {
        try statement.bind(Int64(output ? 1 : 0), at: index)
    }

    /// `true` and `false`, which `Codable` reads, not 1 and 0.
    public static var jsonValueForm: JSONValueForm { .boolean }

    public static var sqlType: SQLType { .integer }
}
