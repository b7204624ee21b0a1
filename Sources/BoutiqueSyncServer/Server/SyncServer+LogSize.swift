extension SyncServer {
    /// How many change-log entries the store holds, all tenants together: what garbage collection
    /// (``SyncHousekeeping``) keeps in check. Read from the store (``SyncStore/logEntryCount()``):
    /// one statement for this module's SQLite and PostgreSQL stores, no read at all for a
    /// ``SQLiteTenantFilesStore``, one read per tenant for a store that says nothing better; callers
    /// ask now and then (a metrics scrape at most once a minute), not per request.
    ///
    /// ```swift
    /// print("\(try await server.logEntryCount()) log entries")
    /// ```
    ///
    /// - Throws: what the store throws.
    public nonisolated func logEntryCount() async throws -> Int { try await store.logEntryCount() }
}
