import CSQLite

/// A SQLite result code, primary or extended.
///
/// Extended codes carry the primary code in their low byte, so ``primary`` always says which family a
/// code belongs to: `ResultCode.busySnapshot.primary == .busy`.
///
/// ```swift
/// catch let error as SQLiteError where error.code == .constraint { ... }
/// ```
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric code, as SQLite's C API returns it.
    public let rawValue: Int32

    /// The code with the numeric value `rawValue`.
    @inlinable
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code (the low byte of an extended code).
    @inlinable
    public var primary: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

    /// SQLite's English description of the code (`sqlite3_errstr`).
    public var description: String {
        guard let text = sqlite3_errstr(rawValue) else { return "SQLite result code \(rawValue)" }
        return "\(String(cString: text)) (\(rawValue))"
    }

    /// Success (`SQLITE_OK`).
    public static let ok = ResultCode(rawValue: SQLITE_OK)
    /// A generic error, e.g. a syntax error or a missing table (`SQLITE_ERROR`).
    public static let error = ResultCode(rawValue: SQLITE_ERROR)
    /// A malfunction inside SQLite (`SQLITE_INTERNAL`).
    public static let `internal` = ResultCode(rawValue: SQLITE_INTERNAL)
    /// The file cannot be opened with the access asked for (`SQLITE_PERM`).
    public static let permission = ResultCode(rawValue: SQLITE_PERM)
    /// An operation was aborted, e.g. by a callback (`SQLITE_ABORT`).
    public static let abort = ResultCode(rawValue: SQLITE_ABORT)
    /// Another connection holds a lock this one needs (`SQLITE_BUSY`).
    public static let busy = ResultCode(rawValue: SQLITE_BUSY)
    /// A conflict inside this connection, e.g. a table a running statement reads is being dropped (`SQLITE_LOCKED`).
    public static let locked = ResultCode(rawValue: SQLITE_LOCKED)
    /// An allocation failed (`SQLITE_NOMEM`).
    public static let noMemory = ResultCode(rawValue: SQLITE_NOMEM)
    /// A write to a database that cannot be written (`SQLITE_READONLY`).
    public static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
    /// The statement was stopped by an interrupt (`SQLITE_INTERRUPT`): how cancellation reaches SQLite.
    public static let interrupt = ResultCode(rawValue: SQLITE_INTERRUPT)
    /// The operating system reported an I/O error (`SQLITE_IOERR`).
    public static let ioError = ResultCode(rawValue: SQLITE_IOERR)
    /// The file is damaged (`SQLITE_CORRUPT`).
    public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
    /// An unknown file-control or system call (`SQLITE_NOTFOUND`).
    public static let notFound = ResultCode(rawValue: SQLITE_NOTFOUND)
    /// The disk is full (`SQLITE_FULL`).
    public static let full = ResultCode(rawValue: SQLITE_FULL)
    /// The file cannot be opened (`SQLITE_CANTOPEN`).
    public static let cannotOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
    /// The file-locking protocol failed (`SQLITE_PROTOCOL`).
    public static let `protocol` = ResultCode(rawValue: SQLITE_PROTOCOL)
    /// The schema changed while a statement was being prepared (`SQLITE_SCHEMA`).
    public static let schema = ResultCode(rawValue: SQLITE_SCHEMA)
    /// A string or blob is larger than the limit (`SQLITE_TOOBIG`).
    public static let tooBig = ResultCode(rawValue: SQLITE_TOOBIG)
    /// A constraint was violated (`SQLITE_CONSTRAINT`).
    public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    /// A value of the wrong type, e.g. text for an `INTEGER PRIMARY KEY` (`SQLITE_MISMATCH`).
    public static let mismatch = ResultCode(rawValue: SQLITE_MISMATCH)
    /// The API was used wrongly, e.g. a closed connection (`SQLITE_MISUSE`).
    public static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
    /// A parameter index out of range (`SQLITE_RANGE`).
    public static let range = ResultCode(rawValue: SQLITE_RANGE)
    /// An authorizer denied an action (`SQLITE_AUTH`).
    public static let authorization = ResultCode(rawValue: SQLITE_AUTH)
    /// The file is not a database (`SQLITE_NOTADB`).
    public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)
    /// `sqlite3_step` has a row ready (`SQLITE_ROW`).
    public static let row = ResultCode(rawValue: SQLITE_ROW)
    /// `sqlite3_step` has finished (`SQLITE_DONE`).
    public static let done = ResultCode(rawValue: SQLITE_DONE)

    // Extended codes users commonly branch on.
    /// A WAL read transaction cannot be upgraded to a write: its snapshot is stale (`SQLITE_BUSY_SNAPSHOT`).
    public static let busySnapshot = ResultCode(rawValue: SQLITE_BUSY | (2 << 8))
    /// A blocking lock timed out (`SQLITE_BUSY_TIMEOUT`).
    public static let busyTimeout = ResultCode(rawValue: SQLITE_BUSY | (3 << 8))
    /// The file was moved or deleted while open (`SQLITE_READONLY_DBMOVED`).
    public static let readOnlyDatabaseMoved = ResultCode(rawValue: SQLITE_READONLY | (4 << 8))
    /// A foreign-key constraint failed (`SQLITE_CONSTRAINT_FOREIGNKEY`).
    public static let constraintForeignKey = ResultCode(rawValue: SQLITE_CONSTRAINT | (3 << 8))
    /// A `NOT NULL` constraint failed (`SQLITE_CONSTRAINT_NOTNULL`).
    public static let constraintNotNull = ResultCode(rawValue: SQLITE_CONSTRAINT | (5 << 8))
    /// A `PRIMARY KEY` constraint failed (`SQLITE_CONSTRAINT_PRIMARYKEY`).
    public static let constraintPrimaryKey = ResultCode(rawValue: SQLITE_CONSTRAINT | (6 << 8))
    /// A `UNIQUE` constraint failed (`SQLITE_CONSTRAINT_UNIQUE`).
    public static let constraintUnique = ResultCode(rawValue: SQLITE_CONSTRAINT | (8 << 8))
    /// A `CHECK` constraint failed (`SQLITE_CONSTRAINT_CHECK`).
    public static let constraintCheck = ResultCode(rawValue: SQLITE_CONSTRAINT | (1 << 8))
    /// A commit hook turned a commit into a rollback.
    public static let constraintCommitHook = ResultCode(rawValue: SQLITE_CONSTRAINT | (2 << 8))
}
