/// Writes values in SQLite's record format, the payload format of table B-tree cells.
///
/// A record is a header, then the values' bodies. The header starts with its own size in bytes (a
/// varint that counts itself) and holds one serial type per value (see ``SerialType``). The output is
/// byte for byte what SQLite and Turso write, so the `before`, `after` and `updates` columns of
/// `turso_cdc` written from these bytes match the engine's own.
///
/// ```swift
/// let bytes = RecordEncoder.encode([.integer(1), .null, .text("x")])
/// // [0x04, 0x09, 0x00, 0x0F, 0x78]
/// ```
public enum RecordEncoder {
    /// The record holding `values`, in order.
    public static func encode(_ values: [DatabaseValue]) -> [UInt8] {
        let (headerSize, bodyLength) = sizes(of: values)
        let total = headerSize + bodyLength
        // The exact size is known, so the bytes are written straight into the new array's storage.
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, initializedCount in
            var writer = RecordWriter(buffer)
            write(values, headerSize: headerSize, to: &writer)
            initializedCount = writer.written
        }
    }

    /// Appends the record holding `values` to `bytes`, which lets a caller collect several in one buffer.
    ///
    /// The record is written in place, at the end of `bytes`: collecting thousands of records costs no
    /// array per record.
    public static func append(_ values: [DatabaseValue], to bytes: inout [UInt8]) {
        let (headerSize, bodyLength) = sizes(of: values)
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: headerSize + bodyLength))
        bytes.withUnsafeMutableBufferPointer { buffer in
            var writer = RecordWriter(UnsafeMutableBufferPointer(rebasing: buffer[start...]))
            write(values, headerSize: headerSize, to: &writer)
        }
    }

    private static func write(_ values: [DatabaseValue], headerSize: Int, to writer: inout RecordWriter) {
        writer.varint(UInt64(headerSize))
        for value in values {
            writer.varint(SerialType(for: value).rawValue)
        }
        for value in values {
            writer.body(of: value)
        }
    }

    /// How many bytes the record holding `values` takes.
    public static func encodedLength(_ values: [DatabaseValue]) -> Int {
        let (headerSize, bodyLength) = sizes(of: values)
        return headerSize + bodyLength
    }

    /// The header size (its own varint included) and the total length of the bodies.
    private static func sizes(of values: [DatabaseValue]) -> (header: Int, body: Int) {
        var serialTypesLength = 0
        var bodyLength = 0
        for value in values {
            let serialType = SerialType(for: value)
            serialTypesLength += SQLiteVarint.encodedLength(serialType.rawValue)
            bodyLength += Int(truncatingIfNeeded: serialType.contentLength ?? 0)
        }
        return (headerSize(serialTypesLength: serialTypesLength), bodyLength)
    }

    /// The header size for serial types taking `serialTypesLength` bytes.
    ///
    /// The size counts its own varint, so it is a fixed point: with 127 bytes of serial types the
    /// size would be 128, which needs a 2-byte varint, which makes it 129.
    public static func headerSize(serialTypesLength: Int) -> Int {
        var size = serialTypesLength + 1
        while true {
            let needed = serialTypesLength + SQLiteVarint.encodedLength(UInt64(size))
            if needed == size { return size }
            size = needed
        }
    }
}

extension RecordWriter {
    /// The body of `value`: nothing for NULL, 0 and 1, else its bytes.
    mutating func body(of value: DatabaseValue) {
        switch value {
        case .null:
            break
        case .integer(let integer):
            let width = Int(truncatingIfNeeded: SerialType.integer(integer).contentLength ?? 0)
            bigEndian(UInt64(bitPattern: integer), width: width)
        case .real(let real):
            if !real.isNaN { bigEndian(real.bitPattern, width: 8) }
        case .text(let text):
            var text = text
            text.withUTF8 { utf8 in bytes(utf8) }
        case .blob(let blob):
            blob.withUnsafeBufferPointer { blob in bytes(blob) }
        }
    }
}
