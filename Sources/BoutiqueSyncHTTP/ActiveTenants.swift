/// The tenants that made a request within ``window`` (`boutique_tenants_active`), kept bounded:
/// tenants' names come from tokens, so the names seen over a server's life are as many as its
/// tokens say, and only the active ones are kept.
///
/// ```swift
/// var tenants = ActiveTenants()
/// tenants.saw("acme", at: .now)
/// let active = tenants.count(at: .now)   // 1, and 0 once the window has passed
/// ```
///
/// Tenants whose last request is older than the window are dropped as others are seen, whenever
/// the map has doubled since it was last pruned, so each request costs amortised constant time. At
/// most ``limit`` are kept: past it, the quarter seen longest ago is forgotten (the gauge then reads
/// less than the active tenants: at least three quarters of the limit).
struct ActiveTenants {
    /// How long a tenant counts as active after its last request.
    let window: Duration
    /// The most tenants kept.
    let limit: Int
    private var lastSeen: [String: ContinuousClock.Instant] = [:]
    /// The size at which the map is pruned next.
    private var pruneAt: Int

    /// The least ``pruneAt``: a small map is not worth pruning.
    private static let smallest = 1_024

    init(window: Duration = .seconds(600), limit: Int = 100_000) {
        self.window = window
        self.limit = max(1, limit)
        pruneAt = min(Self.smallest, self.limit)
    }

    /// How many tenants are kept now, active or not yet pruned.
    var keptCount: Int { lastSeen.count }

    mutating func saw(_ tenant: String, at now: ContinuousClock.Instant) {
        lastSeen[tenant] = now
        guard lastSeen.count > pruneAt else { return }
        prune(at: now)
        if lastSeen.count > limit {
            // Down to three quarters of the limit, so that the sort is paid once per quarter of it.
            let oldest = lastSeen.sorted { $0.value < $1.value }.prefix(lastSeen.count - limit * 3 / 4)
            for (name, _) in oldest { lastSeen[name] = nil }
        }
        pruneAt = min(limit, max(Self.smallest, lastSeen.count * 2))
    }

    /// The tenants seen within the window before `now` (the others are dropped).
    mutating func count(at now: ContinuousClock.Instant) -> Int {
        prune(at: now)
        return lastSeen.count
    }

    private mutating func prune(at now: ContinuousClock.Instant) {
        lastSeen = lastSeen.filter { now - $0.value < window }
    }
}
