import CSQLite

/// An error reported by SQLite, or by this layer when a call cannot be made (a closed connection,
/// an unknown parameter name, text that is not UTF-8).
///
/// It carries the extended result code, SQLite's message and the SQL that failed, so that a log line
/// says what went wrong and where.
public struct SQLiteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The extended result code (for example `.constraintUnique`). Compare ``code`` for the family.
    public let extendedCode: ResultCode
    /// The message SQLite gave (`sqlite3_errmsg`), or this layer's own explanation.
    public let message: String
    /// The statement that failed, when there is one.
    public let sql: String?

    /// The primary result code (for example `.constraint`).
    @inlinable
    public var code: ResultCode { extendedCode.primary }

    /// An error with the extended result code `code`, a message and the SQL that failed.
    public init(_ code: ResultCode, message: String, sql: String? = nil) {
        self.extendedCode = code
        self.message = message
        self.sql = sql
    }

    public var description: String {
        var text = "SQLite error \(extendedCode.rawValue): \(message)"
        if let sql { text += " — while running: \(sql)" }
        return text
    }
}

extension SQLiteError {
    /// The error the connection `db` holds for the failing result code `rc`.
    @usableFromInline
    init(db: OpaquePointer?, rc: Int32, sql: String?) {
        let message: String
        if let db, let text = sqlite3_errmsg(db) {
            message = String(cString: text)
        } else if let text = sqlite3_errstr(rc) {
            message = String(cString: text)
        } else {
            message = "SQLite result code \(rc)"
        }
        // With extended codes enabled, `rc` is already extended; keep the richer of the two.
        var code = rc
        if let db, rc & 0xFF == rc {
            let extended = sqlite3_extended_errcode(db)
            if extended & 0xFF == rc { code = extended }
        }
        self.init(ResultCode(rawValue: code), message: message, sql: sql)
    }

    /// The error for using a connection or statement after it was closed or finalized.
    static func closed(_ what: String, sql: String? = nil) -> SQLiteError {
        SQLiteError(.misuse, message: "the \(what) is closed", sql: sql)
    }
}
