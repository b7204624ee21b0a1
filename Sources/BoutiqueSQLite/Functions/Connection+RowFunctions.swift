import CSQLite

/// A Swift closure SQLite calls as a scalar SQL function, reading its arguments as a row; SQLite owns
/// one retain on it and releases it through the destructor callback.
final class SQLRowFunctionBox {
    let name: String
    let rows: FunctionArgumentRows
    let body: (Statement) throws -> DatabaseValue

    init(name: String, rows: FunctionArgumentRows, body: @escaping (Statement) throws -> DatabaseValue) {
        self.name = name
        self.rows = rows
        self.body = body
    }
}

extension Connection {
    /// Adds (or replaces) a scalar SQL function whose body reads its arguments as the columns of one
    /// row: the statement it receives is positioned on a row holding argument 1 in column 0, argument 2
    /// in column 1, and so on, with their storage classes kept.
    ///
    /// ```swift
    /// try connection.createFunction("exclaim", argumentCount: 1, argumentRow: { row in
    ///     guard row.columnType(at: 0) == .text else { throw SQLFunctionError("exclaim: expected text") }
    ///     return .text(try row.string(at: 0) + "!")
    /// })
    /// ```
    ///
    /// The row lets a function decode its arguments with the readers that decode a query's columns.
    /// The statement is valid only during the call. As for
    /// ``createFunction(_:argumentCount:deterministic:_:)``, the body runs inside `sqlite3_step`, must
    /// not use the connection, and an error it throws fails the calling statement with its message.
    public func createFunction(
        _ name: String, argumentCount: Int32, deterministic: Bool = false,
        argumentRow body: @escaping (Statement) throws -> DatabaseValue
    ) throws(SQLiteError) {
        let db = try requireHandle()
        try Connection.checkFunctionArgumentCount(argumentCount, name: name)
        var flags = SQLITE_UTF8
        if deterministic { flags |= SQLITE_DETERMINISTIC }
        // SQLite owns this retain from now on; `releaseRowFunctionBox` gives it back, even when the
        // registration fails.
        let box = SQLRowFunctionBox(name: name, rows: functionArgumentRows, body: body)
        let context = Unmanaged.passRetained(box).toOpaque()
        let rc = sqlite3_create_function_v2(
            db, name, argumentCount, flags, context, callRowFunctionBox, nil, nil, releaseRowFunctionBox)
        guard rc == SQLITE_OK else {
            throw SQLiteError(ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db)))
        }
    }

    /// Refuses an argument count SQLite does not accept (`-1` means any number).
    static func checkFunctionArgumentCount(_ count: Int32, name: String) throws(SQLiteError) {
        guard count >= -1, count <= 127 else {
            throw SQLiteError(.misuse, message: "function \(name): argument count \(count) is outside -1...127")
        }
    }
}

private func callRowFunctionBox(
    _ context: OpaquePointer?, _ count: Int32, _ values: UnsafeMutablePointer<OpaquePointer?>?
) {
    guard let raw = sqlite3_user_data(context) else { return }
    let box = Unmanaged<SQLRowFunctionBox>.fromOpaque(raw).takeUnretainedValue()
    do {
        setFunctionResult(context, try box.rows.withRow(count: count, values: values, box.body))
    } catch {
        setFunctionError(context, name: box.name, error)
    }
}

private func releaseRowFunctionBox(_ raw: UnsafeMutableRawPointer?) {
    guard let raw else { return }
    Unmanaged<SQLRowFunctionBox>.fromOpaque(raw).release()
}
