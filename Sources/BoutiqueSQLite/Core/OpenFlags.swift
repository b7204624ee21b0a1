import CSQLite

/// How a ``Connection`` opens its file (`sqlite3_open_v2` flags).
public struct OpenFlags: OptionSet, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Open for reading only; writes fail with `SQLITE_READONLY`.
    public static let readOnly = OpenFlags(rawValue: SQLITE_OPEN_READONLY)
    /// Open for reading and writing.
    public static let readWrite = OpenFlags(rawValue: SQLITE_OPEN_READWRITE)
    /// Create the file when it does not exist (with ``readWrite``).
    public static let create = OpenFlags(rawValue: SQLITE_OPEN_CREATE)
    /// Interpret the path as a `file:` URI (`file:name?mode=memory&cache=shared`).
    public static let uri = OpenFlags(rawValue: SQLITE_OPEN_URI)
    /// A private in-memory database named by the path.
    public static let memory = OpenFlags(rawValue: SQLITE_OPEN_MEMORY)
    /// Multi-thread mode: the connection is used by one thread at a time, without SQLite's mutex.
    public static let noMutex = OpenFlags(rawValue: SQLITE_OPEN_NOMUTEX)
    /// Serialized mode: SQLite guards the connection with a mutex.
    public static let fullMutex = OpenFlags(rawValue: SQLITE_OPEN_FULLMUTEX)
    /// Share the page cache with other connections to the same database in this process.
    public static let sharedCache = OpenFlags(rawValue: SQLITE_OPEN_SHAREDCACHE)
    /// Refuse to open a path that is a symbolic link.
    public static let noFollow = OpenFlags(rawValue: SQLITE_OPEN_NOFOLLOW)

    /// Read-write, created when missing, one thread at a time: what a ``Connection`` uses by default.
    public static let `default`: OpenFlags = [.readWrite, .create, .noMutex]
}
