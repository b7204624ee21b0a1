import CSQLite

extension PreupdateChange {
    /// Appends the record of the row before (`old`) or after the change to `bytes`, in SQLite's record
    /// format, straight from SQLite's values: the record ``RecordEncoder`` writes for the same values.
    ///
    /// ```swift
    /// try connection.setPreupdateHook { change in
    ///     _ = change.appendRecord(old: false, realAffinity: [false, true], to: &log)
    /// }
    /// ```
    ///
    /// `realAffinity` has one flag per stored column: a whole number in a REAL column is stored as an
    /// integer and reads as a REAL, so it is written as one. A table with virtual generated columns
    /// reports only its stored ones here (SQLite answers `SQLITE_RANGE` for the rest).
    ///
    /// Why not ``oldRow()`` and ``RecordEncoder``: a bulk insert logs every row, and making a
    /// ``DatabaseValue`` of each column first cost more than the insert itself.
    ///
    /// - Returns: `false`, with nothing appended, when the row does not have one value per flag or the
    ///   hook call has returned.
    public func appendRecord(old: Bool, realAffinity: [Bool], to bytes: inout [UInt8]) -> Bool {
        guard let db else { return false }
        let count = Int(sqlite3_preupdate_count(db))
        let stored = realAffinity.count
        guard count >= stored, count <= 2000 else { return false }
        return withUnsafeTemporaryAllocation(of: PreupdateColumn.self, capacity: count) { columns in
            var found = 0
            var serialTypesLength = 0
            var bodyLength = 0
            for index in 0..<count {
                var value: OpaquePointer?
                let rc = old ? sqlite3_preupdate_old(db, Int32(index), &value) : sqlite3_preupdate_new(db, Int32(index), &value)
                if rc == SQLITE_RANGE { continue }
                guard rc == SQLITE_OK, found < stored else { return false }
                let column = PreupdateColumn(value, real: realAffinity[found])
                columns.initializeElement(at: found, to: column)
                serialTypesLength += SQLiteVarint.encodedLength(column.serialType)
                bodyLength += column.bodyLength
                found += 1
            }
            guard found == stored else { return false }
            let headerSize = RecordEncoder.headerSize(serialTypesLength: serialTypesLength)
            let total = headerSize + bodyLength
            // Written into scratch memory, then appended in one go: appending byte by byte checked the
            // array's capacity and uniqueness for every byte.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: total) { scratch in
                var writer = RecordWriter(scratch)
                writer.varint(UInt64(headerSize))
                for index in 0..<stored { writer.varint(columns[index].serialType) }
                for index in 0..<stored { columns[index].writeBody(to: &writer) }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<writer.written]))
            }
            return true
        }
    }
}

/// One column's value with its serial type, read once.
private struct PreupdateColumn {
    let value: OpaquePointer?
    let type: Int32
    let serialType: UInt64
    let bodyLength: Int
    /// The integer, or for a REAL the bits, to write.
    let bits: UInt64

    init(_ value: OpaquePointer?, real: Bool) {
        self.value = value
        type = sqlite3_value_type(value)
        switch type {
        case SQLITE_INTEGER:
            let integer = sqlite3_value_int64(value)
            if real {
                // A REAL column's whole number is stored as an integer and reads as a REAL.
                serialType = 7
                bodyLength = 8
                bits = Double(integer).bitPattern
            } else {
                let integerType = SerialType.integer(integer)
                serialType = integerType.rawValue
                bodyLength = Int(integerType.contentLength ?? 0)
                bits = UInt64(bitPattern: integer)
            }
        case SQLITE_FLOAT:
            let double = sqlite3_value_double(value)
            serialType = double.isNaN ? 0 : 7
            bodyLength = double.isNaN ? 0 : 8
            bits = double.bitPattern
        case SQLITE_TEXT:
            _ = sqlite3_value_text(value)
            let count = Int(sqlite3_value_bytes(value))
            serialType = UInt64(count) * 2 + 13
            bodyLength = count
            bits = 0
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            serialType = UInt64(count) * 2 + 12
            bodyLength = count
            bits = 0
        default:
            serialType = 0
            bodyLength = 0
            bits = 0
        }
    }

    func writeBody(to writer: inout RecordWriter) {
        switch type {
        case SQLITE_INTEGER, SQLITE_FLOAT:
            writer.bigEndian(bits, width: bodyLength)
        case SQLITE_TEXT:
            if bodyLength > 0, let text = sqlite3_value_text(value) { writer.bytes(UnsafeRawPointer(text), count: bodyLength) }
        case SQLITE_BLOB:
            if bodyLength > 0, let blob = sqlite3_value_blob(value) { writer.bytes(blob, count: bodyLength) }
        default:
            break
        }
    }
}
