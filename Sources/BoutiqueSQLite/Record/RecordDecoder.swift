/// Reads values back from SQLite's record format, checking every length against the bytes at hand.
///
/// The decoder is strict because its input comes from files and other processes (the `turso_cdc`
/// table may have been written by another program): a header size that does not fit, a serial type
/// that runs out of the header, a reserved serial type, a value that runs past the end, bytes left
/// over after the last value, or text that is not UTF-8 each throw a ``RecordFormatError`` naming the
/// problem and its offset. Nothing is repaired silently, and nothing is read out of bounds.
///
/// One thing is converted rather than rejected, as SQLite does: a REAL whose bits are a NaN decodes
/// as NULL, because no engine ever stores NaN.
///
/// ```swift
/// let values = try RecordDecoder.decode([0x04, 0x09, 0x00, 0x0F, 0x78])
/// // [.integer(1), .null, .text("x")]
/// ```
public enum RecordDecoder {
    /// The values of the record in `bytes`, in order.
    public static func decode(_ bytes: [UInt8]) throws(RecordFormatError) -> [DatabaseValue] {
        try bytes.withUnsafeBufferPointer { buffer throws(RecordFormatError) in try decodeValues(buffer) }
    }

    /// The values of the record in `bytes` (an `ArraySlice`, `Data`, …), in order.
    ///
    /// Collections with contiguous storage are read in place; others are copied once.
    @inlinable
    public static func decode(_ bytes: some Collection<UInt8>) throws(RecordFormatError) -> [DatabaseValue] {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(RecordFormatError) in try decodeValues(buffer) }
        }
        if let result { return try result.get() }
        return try decode(Array(bytes))
    }

    /// The values of the record in raw memory, for example a blob column read without copying it.
    public static func decode(_ bytes: UnsafeRawBufferPointer) throws(RecordFormatError) -> [DatabaseValue] {
        try bytes.withMemoryRebound(to: UInt8.self) { buffer throws(RecordFormatError) in try decodeValues(buffer) }
    }

    /// The serial types in the header of the record in `bytes`, without reading the values.
    ///
    /// Checks the header only: the header size, each serial type's varint, and the reserved types.
    public static func serialTypes(_ bytes: [UInt8]) throws(RecordFormatError) -> [SerialType] {
        try bytes.withUnsafeBufferPointer { buffer throws(RecordFormatError) in
            var header = try Header(buffer)
            var serialTypes: [SerialType] = []
            while let serialType = try header.next() { serialTypes.append(serialType) }
            return serialTypes
        }
    }

    @usableFromInline
    static func decodeValues(_ buffer: UnsafeBufferPointer<UInt8>) throws(RecordFormatError) -> [DatabaseValue] {
        var header = try Header(buffer)
        var values: [DatabaseValue] = []
        // Each serial type takes at least one header byte, so this bounds the column count.
        values.reserveCapacity(header.end - header.cursor)
        var body = header.end
        while let serialType = try header.next() {
            let column = values.count
            let available = buffer.count - body
            let value: DatabaseValue
            switch serialType.rawValue {
            case 0:
                value = .null
            case 8:
                value = .integer(0)
            case 9:
                value = .integer(1)
            case 1...7:
                // Widths 1, 2, 3, 4, 6, 8, 8 for serial types 1 to 7.
                let width = serialType.rawValue < 5 ? Int(serialType.rawValue) : serialType.rawValue == 5 ? 6 : 8
                guard width <= available else {
                    throw RecordFormatError(
                        .truncatedValue(column: column, length: UInt64(width), available: available), at: body)
                }
                let integer = readSignedBigEndian(buffer, at: body, width: width)
                body += width
                if serialType.rawValue == 7 {
                    let real = Double(bitPattern: UInt64(bitPattern: integer))
                    value = real.isNaN ? .null : .real(real)
                } else {
                    value = .integer(integer)
                }
            default:
                // Reserved types were rejected by `next()`, so this is a blob (even) or text (odd).
                let length = (serialType.rawValue - 12) / 2
                guard length <= UInt64(available) else {
                    throw RecordFormatError(.truncatedValue(column: column, length: length, available: available), at: body)
                }
                let slice = UnsafeBufferPointer(rebasing: buffer[body..<body + Int(length)])
                if serialType.rawValue % 2 == 0 {
                    value = .blob(Array(slice))
                } else if let text = validatedText(slice) {
                    value = .text(text)
                } else {
                    throw RecordFormatError(.invalidUTF8(column: column), at: body)
                }
                body += Int(length)
            }
            values.append(value)
        }
        guard body == buffer.count else {
            throw RecordFormatError(.trailingBytes(count: buffer.count - body), at: body)
        }
        return values
    }

    /// The text in `bytes` if they are valid UTF-8, else `nil`.
    ///
    /// `String(validating:as:)` would say the same, but it is generic and unspecialised in the standard
    /// library, which made it the slowest step of decoding a short text. `String(decoding:as:)` is fast
    /// and repairs invalid input with U+FFFD; a repair always changes the bytes at the first invalid
    /// position (the bytes of U+FFFD are themselves valid), so the input was valid exactly when the
    /// decoded string's UTF-8 is the input.
    @inline(__always)
    private static func validatedText(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        let unchanged = text.utf8.withContiguousStorageIfAvailable { decoded in
            decoded.count == bytes.count && decoded.elementsEqual(bytes)
        }
        return (unchanged ?? text.utf8.elementsEqual(bytes)) ? text : nil
    }

    /// The `width`-byte big-endian two's-complement integer at `offset`, sign-extended to 64 bits.
    @inline(__always)
    private static func readSignedBigEndian(_ buffer: UnsafeBufferPointer<UInt8>, at offset: Int, width: Int) -> Int64 {
        var raw: UInt64 = 0
        for index in offset..<offset + width {
            raw = (raw << 8) | UInt64(buffer[index])
        }
        // Shift the value's sign bit up to bit 63, then back down arithmetically.
        let unused = UInt64(64 - 8 * width)
        return Int64(bitPattern: raw << unused) >> unused
    }
}

extension RecordDecoder {
    /// A cursor over the serial types of a record header, which validates as it goes.
    struct Header {
        let buffer: UnsafeBufferPointer<UInt8>
        /// The offset just past the header: where the first value's body starts.
        let end: Int
        /// The offset of the next serial type.
        private(set) var cursor: Int
        private var column = 0

        /// Reads and checks the header size.
        init(_ buffer: UnsafeBufferPointer<UInt8>) throws(RecordFormatError) {
            guard let (size, length) = SQLiteVarint.read(buffer, at: 0, limit: buffer.count) else {
                throw RecordFormatError(.truncatedVarint, at: 0)
            }
            guard size >= UInt64(length) else {
                throw RecordFormatError(.headerSizeTooSmall(declared: size), at: 0)
            }
            guard size <= UInt64(buffer.count) else {
                throw RecordFormatError(.headerSizeExceedsRecord(declared: size, recordLength: buffer.count), at: 0)
            }
            self.buffer = buffer
            self.end = Int(size)
            self.cursor = length
        }

        /// The next serial type, or `nil` at the end of the header.
        mutating func next() throws(RecordFormatError) -> SerialType? {
            guard cursor < end else { return nil }
            guard let (rawValue, length) = SQLiteVarint.read(buffer, at: cursor, limit: end) else {
                throw RecordFormatError(.serialTypeCrossesHeaderEnd(column: column), at: cursor)
            }
            let serialType = SerialType(rawValue: rawValue)
            if serialType.isReserved {
                throw RecordFormatError(.reservedSerialType(rawValue, column: column), at: cursor)
            }
            cursor += length
            column += 1
            return serialType
        }
    }
}
