import BoutiqueSQLite
import CSQLite

/// Encodes the row the preupdate hook is reporting straight from SQLite's values into record bytes.
///
/// ```swift
/// // inside the preupdate hook, on the writer's thread:
/// let encoded = PreupdateRecord.append(db, old: false, layout: layout, to: &bytes)
/// ```
///
/// The same record ``RecordEncoder`` writes for the same values (built from ``SerialType`` and
/// ``SQLiteVarint``, and checked against it in the tests), without making a ``DatabaseValue`` of each
/// column first: a bulk insert logs every row, and that detour cost more than the insert itself.
/// Like ``TableLayout/storedValues(_:table:)`` it turns a REAL column's whole number, which SQLite
/// stores as an integer, back into a REAL. It reads the connection only while the hook runs, which
/// SQLite allows; it belongs beside ``PreupdateChange`` in the connection layer.
enum PreupdateRecord {
    /// Appends the record of the old (`old`) or new row to `bytes`; `false` (and nothing appended) when
    /// the values do not match `layout`, for the caller to take the general path.
    static func append(_ db: OpaquePointer, old: Bool, layout: TableLayout, to bytes: inout [UInt8]) -> Bool {
        let count = Int(sqlite3_preupdate_count(db))
        let stored = layout.storedColumns.count
        guard count >= stored, count <= 2000 else { return false }
        return withUnsafeTemporaryAllocation(of: OpaquePointer?.self, capacity: count) { values in
            // SQLite reports a table with virtual columns by storage position and answers SQLITE_RANGE
            // past the stored ones; a SQLite that reported every column would answer it for the virtual
            // ones. Either way the values that read are the stored columns, in order.
            var found = 0
            for index in 0..<count {
                var value: OpaquePointer?
                let rc = old ? sqlite3_preupdate_old(db, Int32(index), &value) : sqlite3_preupdate_new(db, Int32(index), &value)
                if rc == SQLITE_RANGE { continue }
                guard rc == SQLITE_OK, found < stored else { return false }
                values[found] = value
                found += 1
            }
            guard found == stored else { return false }
            var serialTypesLength = 0
            for column in 0..<stored {
                serialTypesLength += SQLiteVarint.encodedLength(serialType(values[column], real: layout.realAffinity[column]).rawValue)
            }
            let headerSize = Self.headerSize(serialTypesLength: serialTypesLength)
            let start = bytes.count
            SQLiteVarint.append(UInt64(headerSize), to: &bytes)
            for column in 0..<stored {
                SQLiteVarint.append(serialType(values[column], real: layout.realAffinity[column]).rawValue, to: &bytes)
            }
            for column in 0..<stored {
                appendBody(values[column], real: layout.realAffinity[column], to: &bytes)
            }
            guard bytes.count - start >= headerSize else {
                bytes.removeSubrange(start...)
                return false
            }
            return true
        }
    }

    /// The serial type of one value; an integer in a REAL column is written as the REAL it reads as.
    private static func serialType(_ value: OpaquePointer?, real: Bool) -> SerialType {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: return real ? .float64 : .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: return sqlite3_value_double(value).isNaN ? .null : .float64
        case SQLITE_TEXT:
            _ = sqlite3_value_text(value)
            return .text(byteCount: Int(sqlite3_value_bytes(value)))
        case SQLITE_BLOB: return .blob(byteCount: Int(sqlite3_value_bytes(value)))
        default: return .null
        }
    }

    private static func appendBody(_ value: OpaquePointer?, real: Bool, to bytes: inout [UInt8]) {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER:
            let integer = sqlite3_value_int64(value)
            if real {
                appendBigEndian(Double(integer).bitPattern, width: 8, to: &bytes)
            } else {
                let width = Int(SerialType.integer(integer).contentLength ?? 0)
                appendBigEndian(UInt64(bitPattern: integer), width: width, to: &bytes)
            }
        case SQLITE_FLOAT:
            let double = sqlite3_value_double(value)
            if !double.isNaN { appendBigEndian(double.bitPattern, width: 8, to: &bytes) }
        case SQLITE_TEXT:
            let count = Int(sqlite3_value_bytes(value))
            if count > 0, let text = sqlite3_value_text(value) {
                bytes.append(contentsOf: UnsafeBufferPointer(start: text, count: count))
            }
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            if count > 0, let blob = sqlite3_value_blob(value) {
                bytes.append(contentsOf: UnsafeRawBufferPointer(start: blob, count: count))
            }
        default:
            break
        }
    }

    private static func appendBigEndian(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        var shift = width * 8
        while shift > 0 {
            shift -= 8
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    /// The header size for serial types taking `serialTypesLength` bytes; it counts its own varint, so
    /// it is the fixed point of `length + varint length`.
    private static func headerSize(serialTypesLength: Int) -> Int {
        var size = serialTypesLength + 1
        while serialTypesLength + SQLiteVarint.encodedLength(UInt64(size)) != size {
            size = serialTypesLength + SQLiteVarint.encodedLength(UInt64(size))
        }
        return size
    }
}
