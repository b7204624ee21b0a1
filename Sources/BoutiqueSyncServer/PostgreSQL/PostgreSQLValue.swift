import CPostgreSQL

/// A value bound to a statement parameter (`$1`, `$2`, …), sent in PostgreSQL's binary format.
///
/// ```swift
/// try connection.execute("DELETE FROM boutique_sync_server_log WHERE tenant = $1 AND sequence <= $2",
///                        [.text("acme"), .int8(42)])
/// ```
///
/// Every value a statement uses travels this way, apart from its text: names and keys that devices
/// send are data, never SQL. Binary format means no value is ever parsed from or printed to text on
/// either side (an `Int64` arrives as its eight bytes, a blob as its bytes).
enum PostgreSQLValue {
    case int4(Int32)
    case int8(Int64)
    case bool(Bool)
    /// UTF-8 text. PostgreSQL text cannot hold a NUL character: the server refuses such a value.
    case text(String)
    case bytea([UInt8])
    /// A one-dimensional `bytea[]` without NULL elements: a list of names bound as one parameter
    /// (`= ANY($2)`), however long it is, so the statement's text never depends on the list.
    case byteaArray([[UInt8]])
    /// A one-dimensional `bigint[]`: a column of a multi-row statement (`unnest($2)`).
    case int8Array([Int64])
    /// A one-dimensional `boolean[]`: a column of a multi-row statement (`unnest($2)`).
    case boolArray([Bool])
    /// SQL NULL, of the type the parameter has.
    case null(PostgreSQLType)

    /// `.int8(value)`, or NULL when `value` is `nil`.
    static func optionalInt8(_ value: Int64?) -> PostgreSQLValue {
        value.map { .int8($0) } ?? .null(.int8)
    }

    var type: PostgreSQLType {
        switch self {
        case .int4: .int4
        case .int8: .int8
        case .bool: .bool
        case .text: .text
        case .bytea: .bytea
        case .byteaArray: .byteaArray
        case .int8Array: .int8Array
        case .boolArray: .boolArray
        case .null(let type): type
        }
    }

    /// Appends the value's binary form to `buffer`; `false` for NULL (which has none).
    func append(to buffer: inout [UInt8]) -> Bool {
        switch self {
        case .int4(let value): withUnsafeBytes(of: value.bigEndian) { buffer.append(contentsOf: $0) }
        case .int8(let value): withUnsafeBytes(of: value.bigEndian) { buffer.append(contentsOf: $0) }
        case .bool(let value): buffer.append(value ? 1 : 0)
        case .text(let value): buffer.append(contentsOf: value.utf8)
        case .bytea(let value): buffer.append(contentsOf: value)
        case .byteaArray(let elements): Self.appendArray(elements, of: .bytea, to: &buffer)
        case .int8Array(let elements):
            Self.appendArray(elements.map { value in withUnsafeBytes(of: value.bigEndian) { Array($0) } }, of: .int8, to: &buffer)
        case .boolArray(let elements): Self.appendArray(elements.map { [$0 ? 1 : 0] }, of: .bool, to: &buffer)
        case .null: return false
        }
        return true
    }

    /// An array's binary form (`array_send`): dimensions, a has-NULLs flag, the element type, each
    /// dimension's length and lower bound, then each element as a length and its bytes. An empty
    /// array has no dimensions, as PostgreSQL itself sends `'{}'`.
    private static func appendArray(_ elements: [[UInt8]], of element: PostgreSQLType, to buffer: inout [UInt8]) {
        func int32(_ value: Int32) { withUnsafeBytes(of: value.bigEndian) { buffer.append(contentsOf: $0) } }
        func uint32(_ value: UInt32) { withUnsafeBytes(of: value.bigEndian) { buffer.append(contentsOf: $0) } }
        int32(elements.isEmpty ? 0 : 1)
        int32(0)
        uint32(element.rawValue)
        guard !elements.isEmpty else { return }
        // Lengths beyond Int32 are caught by the connection, which refuses a parameter over 2 GB in all.
        int32(Int32(truncatingIfNeeded: elements.count))
        int32(1)
        for bytes in elements {
            int32(Int32(truncatingIfNeeded: bytes.count))
            buffer.append(contentsOf: bytes)
        }
    }
}

/// The PostgreSQL types the store binds and reads, by their built-in type ids (`pg_type.oid`).
enum PostgreSQLType: Oid {
    case bool = 16
    case bytea = 17
    case int8 = 20
    case int4 = 23
    case text = 25
    case byteaArray = 1001
    case boolArray = 1000
    case int8Array = 1016
}
