/// Keeps a pull's changed pages in memory until its transaction commits.
///
/// A pull of thousands of changes dirties more pages than SQLite's default page cache (2 MB) holds: the
/// rows, their states, their index entries and the change log, about a kilobyte per change. SQLite then
/// spills pages to the WAL in the middle of the transaction and writes many of them again at commit,
/// which cost a pull of 10,000 changes about a sixth of its time (measured). So the cache may grow to
/// 64 MB for the pull's transaction; the limit is a ceiling, not an allocation. It is put back before
/// the commit: pages dirty by then stay until they are written, and are released after.
///
/// `PRAGMA cache_spill = OFF` would say the same, but takes effect only outside a transaction. A
/// connection whose cache size is not SQLite's default (someone chose it) keeps it.
enum PullPageCache {
    /// Runs `body`, inside the caller's transaction, with the larger cache.
    static func enlarged<T>(on connection: Connection, _ body: () throws -> T) throws -> T {
        guard try connection.fetchValue("PRAGMA cache_size") == .integer(-2000) else { return try body() }
        try connection.execute("PRAGMA cache_size = -65536")
        defer { try? connection.execute("PRAGMA cache_size = -2000") }
        return try body()
    }
}
