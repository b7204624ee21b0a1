extension SyncServer {
    /// How many change-log entries the store holds, all tenants together: what garbage collection
    /// (``SyncHousekeeping``) keeps in check. One read per tenant, so callers ask now and then (a
    /// metrics scrape at most once a minute), not per request.
    ///
    /// ```swift
    /// print("\(try await server.logEntryCount()) log entries")
    /// ```
    ///
    /// - Throws: what the store throws.
    public nonisolated func logEntryCount() async throws -> Int {
        var total = 0
        for tenant in try await store.tenants() {
            total += try await store.read(tenant: tenant) { transaction in
                Int(max(0, try transaction.latestSequence() - transaction.logHorizon()))
            }
        }
        return total
    }
}
