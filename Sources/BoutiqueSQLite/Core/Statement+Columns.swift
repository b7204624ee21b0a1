import CSQLite

extension Statement {
    /// Number of result columns.
    @inlinable
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The name of the result column at `index` (0-based), as SQLite reports it.
    /// A finalized statement, or an index out of range, has the empty name.
    public func columnName(at index: Int32) -> String {
        // sqlite3_column_name dereferences the statement without checking it for NULL.
        guard let handle, let name = sqlite3_column_name(handle, index) else { return "" }
        return String(cString: name)
    }

    /// All result column names, in order.
    public var columnNames: [String] {
        (0..<columnCount).map { columnName(at: $0) }
    }

    /// The storage class of the value in the current row at `index`.
    @inlinable
    public func columnType(at index: Int32) -> StorageClass {
        StorageClass(rawValue: sqlite3_column_type(handle, index)) ?? .null
    }

    /// `true` when the value at `index` is NULL.
    @inlinable
    public func isNull(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// The value at `index` as a 64-bit integer (SQLite's conversion rules apply; NULL reads as 0).
    @inlinable
    public func int64(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// The value at `index` as an integer.
    @inlinable
    public func int(at index: Int32) -> Int {
        Int(truncatingIfNeeded: sqlite3_column_int64(handle, index))
    }

    /// The value at `index` as a double (NULL reads as 0).
    @inlinable
    public func double(at index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    /// The value at `index` as text. NUL characters are kept; NULL reads as the empty string.
    ///
    /// - Throws: `.mismatch` when the bytes are not valid UTF-8 (read them with ``textBytes(at:)``).
    @inlinable
    public func string(at index: Int32) throws(SQLiteError) -> String {
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        let bytes = UnsafeBufferPointer(start: text, count: count)
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw SQLiteError(
                .mismatch, message: "column \(columnName(at: index)) holds text that is not valid UTF-8", sql: sql)
        }
        return string
    }

    /// The raw bytes of the value at `index` read as text, whatever they are.
    public func textBytes(at index: Int32) -> [UInt8] {
        guard let text = sqlite3_column_text(handle, index) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, index))
        return Array(UnsafeBufferPointer(start: text, count: count))
    }

    /// The value at `index` as a blob (a copy). NULL and the empty blob both read as `[]`:
    /// check ``isNull(at:)`` to tell them apart.
    @inlinable
    public func blob(at index: Int32) -> [UInt8] {
        withUnsafeBlob(at: index) { Array($0) }
    }

    /// Calls `body` with the bytes of the blob at `index`, without copying them.
    ///
    /// The buffer is valid only inside `body`, and only until the statement steps, resets or is finalized.
    @inlinable
    public func withUnsafeBlob<R, E: Error>(
        at index: Int32, _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        let base = sqlite3_column_blob(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        return try body(UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : count))
    }

    /// The value at `index` in its own storage class.
    public func value(at index: Int32) throws(SQLiteError) -> DatabaseValue {
        switch columnType(at: index) {
        case .null: return .null
        case .integer: return .integer(int64(at: index))
        case .real: return .real(double(at: index))
        case .text: return .text(try string(at: index))
        case .blob: return .blob(blob(at: index))
        }
    }

    /// Every value of the current row.
    public func row() throws(SQLiteError) -> [DatabaseValue] {
        var values: [DatabaseValue] = []
        let count = columnCount
        values.reserveCapacity(Int(count))
        for index in 0..<count { values.append(try value(at: index)) }
        return values
    }
}
