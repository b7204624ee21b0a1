/// Bytes that are not a well-formed SQLite record, with what is wrong and where.
///
/// The decoders never trap on bad input: every malformed record ends up as one of these, naming the
/// first problem found and the byte offset at which it starts.
///
/// ```swift
/// do {
///     let values = try RecordDecoder.decode([0x02, 0x0A])
/// } catch {
///     print(error)   // "serial type 10 of column 0 is reserved (at byte 1)"
/// }
/// ```
public struct RecordFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the record.
    public enum Reason: Sendable, Hashable {
        /// The bytes end before the varint that starts at ``RecordFormatError/offset`` does.
        case truncatedVarint
        /// The header-size varint declares fewer bytes than the varint itself takes (0, for example).
        case headerSizeTooSmall(declared: UInt64)
        /// The header-size varint declares a header longer than the whole record.
        case headerSizeExceedsRecord(declared: UInt64, recordLength: Int)
        /// The serial type of `column` runs past the end of the header the header size declares.
        case serialTypeCrossesHeaderEnd(column: Int)
        /// Serial types 10 and 11 are reserved by SQLite and never appear in a record.
        case reservedSerialType(UInt64, column: Int)
        /// The value of `column` needs `length` bytes, but only `available` are left.
        case truncatedValue(column: Int, length: UInt64, available: Int)
        /// The text value of `column` is not valid UTF-8.
        case invalidUTF8(column: Int)
        /// Bytes are left over after the last value the header describes.
        case trailingBytes(count: Int)
    }

    /// What is wrong.
    public let reason: Reason
    /// The offset, from the first byte of the record, where the problem starts.
    public let offset: Int

    /// An error for `reason`, found at byte `offset` of the record.
    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// A sentence saying what is wrong, without the offset.
    public var message: String {
        switch reason {
        case .truncatedVarint:
            "the record ends inside a varint"
        case .headerSizeTooSmall(let declared):
            "header size \(declared) is smaller than the varint that encodes it"
        case .headerSizeExceedsRecord(let declared, let recordLength):
            "header size \(declared) is larger than the \(recordLength)-byte record"
        case .serialTypeCrossesHeaderEnd(let column):
            "the serial type of column \(column) runs past the end of the header"
        case .reservedSerialType(let serialType, let column):
            "serial type \(serialType) of column \(column) is reserved"
        case .truncatedValue(let column, let length, let available):
            "column \(column) needs \(length) bytes but only \(available) remain"
        case .invalidUTF8(let column):
            "the text of column \(column) is not valid UTF-8"
        case .trailingBytes(let count):
            "\(count) unexpected bytes follow the last value"
        }
    }

    public var description: String { "\(message) (at byte \(offset))" }
}
