/// SQLite's variable-length integer: 1 to 9 bytes, big-endian, 7 bits a byte.
///
/// The high bit of each of the first eight bytes says whether another byte follows; a ninth byte,
/// when present, contributes all 8 of its bits. So any 64-bit value fits in at most 9 bytes, and
/// values below 128 take one. This is the encoding of record headers and B-tree cells, and it is
/// not LEB128: the most significant group comes first.
///
/// ```swift
/// SQLiteVarint.encode(300)                              // [0x82, 0x2C]
/// let (value, length) = try SQLiteVarint.decode([0x82, 0x2C])   // (300, 2)
/// ```
public enum SQLiteVarint {
    /// The largest number of bytes a varint takes.
    public static let maximumLength = 9

    /// How many bytes `value` takes as a varint (1...9).
    @inlinable
    public static func encodedLength(_ value: UInt64) -> Int {
        // Values needing more than 56 bits go to the 9-byte form, whose last byte carries 8 bits.
        if value > 0x00FF_FFFF_FFFF_FFFF { return 9 }
        let significantBits = 64 - value.leadingZeroBitCount
        return max(1, (significantBits + 6) / 7)
    }

    /// How many bytes the two's-complement bit pattern of `value` takes as a varint.
    @inlinable
    public static func encodedLength(_ value: Int64) -> Int {
        encodedLength(UInt64(bitPattern: value))
    }

    /// The varint bytes of `value`.
    @inlinable
    public static func encode(_ value: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encodedLength(value))
        append(value, to: &bytes)
        return bytes
    }

    /// The varint bytes of the two's-complement bit pattern of `value` (negative values take 9 bytes).
    @inlinable
    public static func encode(_ value: Int64) -> [UInt8] {
        encode(UInt64(bitPattern: value))
    }

    /// Appends the varint bytes of `value` to `bytes`.
    @inlinable
    public static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        let length = encodedLength(value)
        if length == 9 {
            // Eight 7-bit groups above the final full byte.
            var shift = 57
            while shift >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)) | 0x80)
                shift -= 7
            }
            bytes.append(UInt8(truncatingIfNeeded: value))
            return
        }
        var shift = 7 * (length - 1)
        while shift > 0 {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)) & 0x7F | 0x80)
            shift -= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: value) & 0x7F)
    }

    /// Reads the varint that starts at `offset`, returning its value and how many bytes it took.
    ///
    /// Never reads more than 9 bytes, nor past the end of `bytes`.
    ///
    /// - Throws: ``RecordFormatError/Reason/truncatedVarint`` when the bytes end first
    ///   (an `offset` at or past the end is treated the same way).
    @inlinable
    public static func decode(
        _ bytes: [UInt8], at offset: Int = 0
    ) throws(RecordFormatError) -> (value: UInt64, length: Int) {
        let result = bytes.withUnsafeBufferPointer { buffer in
            read(buffer, at: offset, limit: buffer.count)
        }
        guard let result else { throw RecordFormatError(.truncatedVarint, at: offset) }
        return result
    }

    /// Reads the varint at `offset` using only the bytes before `limit`; `nil` if it does not end there.
    ///
    /// The building block of the record decoder, which passes the end of the header as `limit`.
    @inlinable
    static func read(
        _ buffer: UnsafeBufferPointer<UInt8>, at offset: Int, limit: Int
    ) -> (value: UInt64, length: Int)? {
        let end = min(limit, buffer.count)
        guard offset >= 0, offset < end else { return nil }
        // The common case in record headers: one byte.
        let first = buffer[offset]
        if first < 0x80 { return (UInt64(first), 1) }
        var value = UInt64(first & 0x7F)
        var index = offset + 1
        while index < end {
            let byte = buffer[index]
            let length = index - offset + 1
            if length == 9 {
                return ((value << 8) | UInt64(byte), 9)
            }
            value = (value << 7) | UInt64(byte & 0x7F)
            if byte < 0x80 { return (value, length) }
            index += 1
        }
        return nil
    }
}
