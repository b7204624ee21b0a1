import CSQLite

extension Statement {
    @inlinable
    func check(_ rc: Int32) throws(SQLiteError) {
        if rc != SQLITE_OK { throw error(rc) }
    }

    /// Binds NULL to the parameter at `index` (1-based).
    @inlinable
    public func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(handle, index))
    }

    /// Binds a 64-bit integer.
    @inlinable
    public func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    /// Binds an integer.
    @inlinable
    public func bind(_ value: Int, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, Int64(value)))
    }

    /// Binds a double. NaN is stored as NULL by SQLite; infinities are kept.
    @inlinable
    public func bind(_ value: Double, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_double(handle, index, value))
    }

    /// Binds text. The UTF-8 bytes are copied by SQLite, so `value` need not outlive the call;
    /// embedded NUL characters are kept.
    @inlinable
    public func bind(_ value: String, at index: Int32) throws(SQLiteError) {
        var value = value
        let rc = value.withUTF8 { bytes in
            Statement.bindText(handle, index, bytes, destructor: boutique_sqlite_transient())
        }
        try check(rc)
    }

    /// Binds a blob (copied). An empty array binds an empty blob, not NULL.
    @inlinable
    public func bind(_ bytes: [UInt8], at index: Int32) throws(SQLiteError) {
        let rc = bytes.withUnsafeBytes { buffer in
            Statement.bindBlob(handle, index, buffer, destructor: boutique_sqlite_transient())
        }
        try check(rc)
    }

    /// Binds a blob without copying it.
    ///
    /// SQLite reads `buffer` until the parameter is bound again, the bindings are cleared or the statement
    /// is finalized: the caller keeps the memory alive and unchanged until then.
    @inlinable
    public func bindNoCopy(_ buffer: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
        try check(Statement.bindBlob(handle, index, buffer, destructor: boutique_sqlite_static()))
    }

    /// Binds text without copying it; the same lifetime rule as ``bindNoCopy(_:at:)`` applies.
    @inlinable
    public func bindTextNoCopy(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int32) throws(SQLiteError) {
        try check(Statement.bindText(handle, index, utf8, destructor: boutique_sqlite_static()))
    }

    /// Binds any ``DatabaseValue``.
    @inlinable
    public func bind(_ value: DatabaseValue, at index: Int32) throws(SQLiteError) {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let integer): try bind(integer, at: index)
        case .real(let real): try bind(real, at: index)
        case .text(let text): try bind(text, at: index)
        case .blob(let bytes): try bind(bytes, at: index)
        }
    }

    /// Binds values to parameters 1, 2, 3, … in order.
    public func bind(_ values: [DatabaseValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            // Past Int32.max the index is out of range for SQLite too, which reports it as such.
            try bind(value, at: Int32(clamping: offset + 1))
        }
    }

    /// Binds a value to a named parameter (`":name"`, or `"name"` for `:name`).
    public func bind(_ value: DatabaseValue, named name: String) throws(SQLiteError) {
        try bind(value, at: try parameterIndex(named: name))
    }

    /// Binds values to named parameters.
    public func bind(_ values: [String: DatabaseValue]) throws(SQLiteError) {
        for (name, value) in values { try bind(value, named: name) }
    }

    @inlinable
    static func bindText(
        _ handle: OpaquePointer?, _ index: Int32, _ utf8: UnsafeBufferPointer<UInt8>,
        destructor: sqlite3_destructor_type?
    ) -> Int32 {
        // A NULL pointer would bind NULL; the empty string is a distinct value.
        guard let base = utf8.baseAddress, utf8.count > 0 else {
            return sqlite3_bind_text64(handle, index, "", 0, boutique_sqlite_static(), UInt8(SQLITE_UTF8))
        }
        return UnsafeRawPointer(base).withMemoryRebound(to: CChar.self, capacity: utf8.count) { chars in
            sqlite3_bind_text64(handle, index, chars, UInt64(utf8.count), destructor, UInt8(SQLITE_UTF8))
        }
    }

    @inlinable
    static func bindBlob(
        _ handle: OpaquePointer?, _ index: Int32, _ buffer: UnsafeRawBufferPointer,
        destructor: sqlite3_destructor_type?
    ) -> Int32 {
        // A NULL pointer would bind NULL; an empty blob is a distinct value.
        guard let base = buffer.baseAddress, buffer.count > 0 else {
            return sqlite3_bind_zeroblob(handle, index, 0)
        }
        return sqlite3_bind_blob64(handle, index, base, UInt64(buffer.count), destructor)
    }
}
