/// Writes the parts of a record — varints, big-endian integers, raw bytes — into storage sized for it.
///
/// Every write checks the bound, so a miscounted size can only shorten the output, never write past
/// the storage. ``RecordEncoder`` uses it for ``DatabaseValue``s; change capture uses it to write a
/// record straight from SQLite's own values.
///
/// ```swift
/// var writer = RecordWriter(buffer)
/// writer.varint(UInt64(headerSize))
/// ```
public struct RecordWriter {
    /// The storage written into.
    public let buffer: UnsafeMutableBufferPointer<UInt8>
    /// How many bytes have been written, from the start of `buffer`.
    public private(set) var written = 0

    /// A writer that fills `buffer` from its start.
    public init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    /// Appends one byte (nothing once the buffer is full).
    @inline(__always)
    public mutating func byte(_ byte: UInt8) {
        guard written < buffer.count else { return }
        buffer.initializeElement(at: written, to: byte)
        written += 1
    }

    /// SQLite's big-endian varint.
    public mutating func varint(_ value: UInt64) {
        let length = SQLiteVarint.encodedLength(value)
        if length == 9 {
            // Eight 7-bit groups, then a final byte that carries 8 bits.
            var shift: UInt64 = 57
            for _ in 0..<8 {
                byte(UInt8(truncatingIfNeeded: value >> shift) | 0x80)
                shift -= 7
            }
            byte(UInt8(truncatingIfNeeded: value))
            return
        }
        var shift = UInt64(7 * (length - 1))
        while shift > 0 {
            byte(UInt8(truncatingIfNeeded: value >> shift) & 0x7F | 0x80)
            shift -= 7
        }
        byte(UInt8(truncatingIfNeeded: value) & 0x7F)
    }

    /// The low `width` bytes of `value`, most significant first.
    public mutating func bigEndian(_ value: UInt64, width: Int) {
        var shift = width * 8
        while shift > 0 {
            shift -= 8
            byte(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    /// `count` bytes from `source`, as far as they fit.
    public mutating func bytes(_ source: UnsafeRawPointer, count: Int) {
        let room = min(count, buffer.count - written)
        guard room > 0, let to = buffer.baseAddress else { return }
        UnsafeMutableRawPointer(to + written).copyMemory(from: source, byteCount: room)
        written += room
    }

    /// The bytes of `source`, as far as they fit.
    public mutating func bytes(_ source: UnsafeBufferPointer<UInt8>) {
        guard let from = source.baseAddress else { return }
        bytes(UnsafeRawPointer(from), count: source.count)
    }
}
