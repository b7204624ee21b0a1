extension DatabaseActor {
    /// Frees what SQLite caches for the database's connections (pages of the file kept in memory) on
    /// the writer and on every reader not in use; each reads its pages from the file (or the
    /// operating system's cache of it) again when it next needs them.
    ///
    /// ```swift
    /// await database.releaseMemory()
    /// ```
    ///
    /// For a long-running process after a burst of work: each connection keeps up to its cache size
    /// (2 MB by default) until it is closed, so a server with a writer and eight readers can hold
    /// 18 MB it no longer uses. Nothing is written and no transaction is affected.
    public func releaseMemory() async {
        writer?.releaseMemory()
        await readers.releaseMemory()
    }
}
