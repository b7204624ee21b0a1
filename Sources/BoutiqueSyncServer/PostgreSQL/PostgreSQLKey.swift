/// A row's primary-key value as the `bytea` the PostgreSQL store keeps it in: a type tag, then the
/// value's bytes.
///
/// ```swift
/// let stored = PostgreSQLKey.encode(.text("note-1"))   // [3] + "note-1".utf8
/// let key = try PostgreSQLKey.decode(stored)           // .text("note-1")
/// ```
///
/// Snapshot pages go in (table, key) order, the same order as the SQLite store's: there a
/// text key sorts before every blob, texts compare byte by byte (the BINARY collation) and so do
/// blobs. A tag that sorts text (3) before blob (4), followed by the bytes, gives exactly that under
/// `bytea`'s byte-wise comparison, with no collation in play.
///
/// The server only stores text and blob keys (it refuses others); the other kinds round-trip too.
/// Integers and reals keep their order among themselves and sort before text, but unlike in SQLite
/// every integer sorts before every real.
enum PostgreSQLKey {
    private static let integerTag: UInt8 = 1
    private static let realTag: UInt8 = 2
    private static let textTag: UInt8 = 3
    private static let blobTag: UInt8 = 4

    static func encode(_ key: DatabaseValue) -> [UInt8] {
        switch key {
        case .null: return [0]
        case .integer(let value):
            // The sign bit flipped, big-endian: byte order is numeric order.
            return [integerTag] + bigEndianBytes(UInt64(bitPattern: value) ^ (1 << 63))
        case .real(let value):
            // IEEE 754 with the sign bit flipped for positives and every bit for negatives: byte order
            // is numeric order.
            let bits = value.bitPattern
            return [realTag] + bigEndianBytes(bits & (1 << 63) == 0 ? bits | (1 << 63) : ~bits)
        case .text(let text): return [textTag] + Array(text.utf8)
        case .blob(let bytes): return [blobTag] + bytes
        }
    }

    static func decode(_ bytes: [UInt8]) throws(BoutiqueError) -> DatabaseValue {
        guard let tag = bytes.first else { throw malformed("no bytes") }
        let body = Array(bytes.dropFirst())
        switch tag {
        case 0 where body.isEmpty: return .null
        case integerTag where body.count == 8:
            return .integer(Int64(bitPattern: uint64(body) ^ (1 << 63)))
        case realTag where body.count == 8:
            let bits = uint64(body)
            return .real(Double(bitPattern: bits & (1 << 63) != 0 ? bits & ~(1 << 63) : ~bits))
        case textTag:
            guard let text = String(validating: body, as: UTF8.self) else { throw malformed("text that is not UTF-8") }
            return .text(text)
        case blobTag: return .blob(body)
        default: throw malformed("tag \(tag) with \(body.count) bytes")
        }
    }

    private static func bigEndianBytes(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }

    private static func uint64(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func malformed(_ found: String) -> BoutiqueError {
        .decoding(.init(table: "boutique_sync_server_row", column: "key", expectedType: "a stored key", found: found))
    }
}
