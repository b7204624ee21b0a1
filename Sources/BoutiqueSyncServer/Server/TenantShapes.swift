/// Each tenant's synced tables' shapes as its store rows last had them, and the shapes its latest
/// push described, for the tenants seen most recently.
///
/// Shapes are a tenant's own: what one tenant's devices describe places only that tenant's followers.
/// A push describing the same tables as the tenant's last one costs no store access; the cache holds
/// at most ``capacity`` tenants (each at most ``/BoutiqueSync/SyncRules/maximumTables`` shapes, the
/// store's bound), and a tenant it let go is read from the store again.
struct TenantShapes {
    struct Entry {
        /// The shapes as the store has them, by lowercased table name.
        var shapes: [String: SyncTableShape]
        /// The store's ``SyncSpaceStoreTransaction/tableShapesVersion()`` when they were read: a store whose number
        /// differs (another instance changed them) has them read again.
        var version: Int64
        /// What the tenant's latest push described.
        var lastPushed: [SyncTableShape]?
        /// What of the server's rules does not match ``shapes`` (``/BoutiqueSync/SyncRules/mismatches(with:)``),
        /// worked out when the shapes change: while there is any, none of the tenant's pushed rows is placed.
        var mismatches: [String] = []
    }

    /// The most tenants kept.
    let capacity: Int
    private var entries: [String: Entry] = [:]
    /// Tenants by last use, oldest first: the one let go when a new tenant comes in a full cache.
    private var order: [String] = []

    init(capacity: Int = 1_024) { self.capacity = max(1, capacity) }

    subscript(tenant: String) -> Entry? { entries[tenant] }

    /// Records what the store holds for `tenant` (when it was read, with its version) with what of the
    /// rules does not match it, and what its push described.
    mutating func update(
        _ tenant: String, shapes: (shapes: [String: SyncTableShape], version: Int64)?, mismatches: [String] = [], pushed: [SyncTableShape]?
    ) {
        var entry = entries[tenant]
        if let shapes {
            // What a push described at another version was checked against other shapes: the next
            // push describing it is checked again, against these.
            let lastPushed = entry?.version == shapes.version ? entry?.lastPushed : nil
            entry = Entry(shapes: shapes.shapes, version: shapes.version, lastPushed: lastPushed, mismatches: mismatches)
        }
        guard var entry else { return }
        if let pushed { entry.lastPushed = pushed }
        if entries[tenant] == nil, entries.count >= capacity, !order.isEmpty { entries[order.removeFirst()] = nil }
        entries[tenant] = entry
        order.removeAll { $0 == tenant }
        order.append(tenant)
    }
}
