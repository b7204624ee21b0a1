import CSQLite

/// The error a SQL function's body throws to make the statement that called it fail with `message`.
///
/// Any other error thrown by the body fails the statement too, described by `String(describing:)`.
public struct SQLFunctionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the failing statement reports.
    public var message: String

    /// - Parameter message: What the failing statement reports.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}

/// A Swift closure SQLite calls as a scalar SQL function; SQLite owns one retain on it and releases it
/// through the destructor callback when the function is replaced, removed or the connection closes.
final class SQLFunctionBox {
    let name: String
    let body: ([DatabaseValue]) throws -> DatabaseValue
    init(name: String, body: @escaping ([DatabaseValue]) throws -> DatabaseValue) {
        self.name = name
        self.body = body
    }
}

extension Connection {
    /// Adds (or replaces) a scalar SQL function named `name` taking `argumentCount` arguments
    /// (`-1`: any number) on this connection (`sqlite3_create_function_v2`).
    ///
    /// ```swift
    /// try connection.createFunction("exclaim", argumentCount: 1) { arguments in
    ///     guard case .text(let text) = arguments[0] else { throw SQLFunctionError("exclaim: expected text") }
    ///     return .text(text + "!")
    /// }
    /// ```
    ///
    /// The body runs on the connection's thread, inside `sqlite3_step`, and must not use the
    /// connection. An error it throws fails the calling statement with `SQLITE_ERROR` and the error's
    /// message. `deterministic` functions may be used in indexes, generated columns and `CHECK`
    /// constraints, and SQLite may call them fewer times.
    public func createFunction(
        _ name: String, argumentCount: Int32, deterministic: Bool = false,
        _ body: @escaping ([DatabaseValue]) throws -> DatabaseValue
    ) throws(SQLiteError) {
        let db = try requireHandle()
        try Connection.checkFunctionArgumentCount(argumentCount, name: name)
        var flags = SQLITE_UTF8
        if deterministic { flags |= SQLITE_DETERMINISTIC }
        // SQLite owns this retain from now on; `releaseFunctionBox` gives it back, even when the
        // registration fails.
        let context = Unmanaged.passRetained(SQLFunctionBox(name: name, body: body)).toOpaque()
        let rc = sqlite3_create_function_v2(
            db, name, argumentCount, flags, context, callFunctionBox, nil, nil, releaseFunctionBox)
        guard rc == SQLITE_OK else {
            throw SQLiteError(ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db)))
        }
    }

    /// Removes the function `name` taking `argumentCount` arguments, added by ``createFunction(_:argumentCount:deterministic:_:)``.
    public func removeFunction(_ name: String, argumentCount: Int32) throws(SQLiteError) {
        let db = try requireHandle()
        let rc = sqlite3_create_function_v2(db, name, argumentCount, SQLITE_UTF8, nil, nil, nil, nil, nil)
        guard rc == SQLITE_OK else {
            throw SQLiteError(ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db)))
        }
    }
}

/// The C entry point of every Swift SQL function: reads the arguments, runs the body, sets the result.
private func callFunctionBox(
    _ context: OpaquePointer?, _ count: Int32, _ values: UnsafeMutablePointer<OpaquePointer?>?
) {
    guard let raw = sqlite3_user_data(context) else { return }
    let box = Unmanaged<SQLFunctionBox>.fromOpaque(raw).takeUnretainedValue()
    var arguments: [DatabaseValue] = []
    arguments.reserveCapacity(Int(count))
    for index in 0..<Int(count) { arguments.append(readFunctionArgument(values?[index])) }
    do {
        setFunctionResult(context, try box.body(arguments))
    } catch {
        setFunctionError(context, name: box.name, error)
    }
}

/// Fails the calling statement with the error's message: a ``SQLFunctionError``'s own, any other
/// error's description after the function's name.
func setFunctionError(_ context: OpaquePointer?, name: String, _ error: any Error) {
    let message = (error as? SQLFunctionError)?.message ?? "\(name): \(error)"
    sqlite3_result_error(context, message, -1)
}

private func releaseFunctionBox(_ raw: UnsafeMutableRawPointer?) {
    guard let raw else { return }
    Unmanaged<SQLFunctionBox>.fromOpaque(raw).release()
}

private func readFunctionArgument(_ value: OpaquePointer?) -> DatabaseValue {
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER: return .integer(sqlite3_value_int64(value))
    case SQLITE_FLOAT: return .real(sqlite3_value_double(value))
    case SQLITE_TEXT:
        guard let text = sqlite3_value_text(value) else { return .text("") }
        let count = Int(sqlite3_value_bytes(value))
        return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
    case SQLITE_BLOB:
        let count = Int(sqlite3_value_bytes(value))
        guard count > 0, let bytes = sqlite3_value_blob(value) else { return .blob([]) }
        return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
    default: return .null
    }
}

func setFunctionResult(_ context: OpaquePointer?, _ value: DatabaseValue) {
    switch value {
    case .null: sqlite3_result_null(context)
    case .integer(let int): sqlite3_result_int64(context, int)
    case .real(let double): sqlite3_result_double(context, double)
    case .text(let text):
        var text = text
        text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress, utf8.count > 0 else {
                sqlite3_result_text(context, "", 0, boutique_sqlite_transient())
                return
            }
            UnsafeRawPointer(base).withMemoryRebound(to: CChar.self, capacity: utf8.count) { chars in
                sqlite3_result_text64(context, chars, UInt64(utf8.count), boutique_sqlite_transient(), UInt8(SQLITE_UTF8))
            }
        }
    case .blob(let bytes):
        bytes.withUnsafeBytes { buffer in
            if let base = buffer.baseAddress, buffer.count > 0 {
                sqlite3_result_blob64(context, base, UInt64(buffer.count), boutique_sqlite_transient())
            } else {
                sqlite3_result_zeroblob(context, 0)
            }
        }
    }
}
