/// How far known replicas have pulled, kept in the server's memory and written to the store in one
/// transaction per tenant: a pull itself never writes.
///
/// A replica's stored cursor and last-seen time are what garbage collection reads: it prunes the log
/// only below the lowest cursor of the active replicas. A mark not written yet leaves the stored cursor
/// older than the replica's real one and its last-seen time earlier, and an older cursor only makes
/// collection keep more (it never removes what a replica has not pulled). So losing marks (a crash,
/// another server instance holding its own) is safe; it costs tombstones kept a little longer, or, if
/// a replica pulled only through an instance that never wrote its marks for longer than the
/// inactivity limit, a bootstrap the replica would not otherwise need.
///
/// Only replicas the store knows are marked (a device's first push records it): a pull under an id
/// nobody pushed with changes nothing, in memory or in the store. Marks are bounded: one per known
/// replica, and a tenant's are written once they are a minute old or more than
/// ``maximumPerTenant`` wait.
struct PullAcknowledgements {
    /// A replica's latest pull: the cursor it moved to and when.
    struct Mark: Hashable, Sendable {
        var cursor: Int64
        var lastSeen: UInt64
    }

    /// How long a tenant's marks wait in memory, in milliseconds.
    static let flushAfterMilliseconds: UInt64 = 60_000
    /// How many replicas' marks a tenant keeps in memory before they are written.
    static let maximumPerTenant = 10_000

    private var marks: [String: [String: Mark]] = [:]
    /// When each tenant's oldest mark waiting was taken.
    private var since: [String: UInt64] = [:]

    /// Notes `replica`'s pull to `cursor` at `wall`. Returns whether the tenant's marks are due to be
    /// written.
    mutating func note(tenant: String, replica: String, cursor: Int64, wall: UInt64) -> Bool {
        var mark = marks[tenant, default: [:]][replica] ?? Mark(cursor: cursor, lastSeen: wall)
        mark.cursor = max(mark.cursor, cursor)
        mark.lastSeen = max(mark.lastSeen, wall)
        marks[tenant, default: [:]][replica] = mark
        let first = since[tenant] ?? wall
        since[tenant] = first
        return marks[tenant, default: [:]].count >= Self.maximumPerTenant || wall >= first + Self.flushAfterMilliseconds || wall < first
    }

    /// Takes the tenant's marks out, to be written.
    mutating func take(tenant: String) -> [String: Mark] {
        since[tenant] = nil
        return marks.removeValue(forKey: tenant) ?? [:]
    }

    /// Puts back marks whose write failed (merged with any noted meanwhile).
    mutating func restore(_ taken: [String: Mark], tenant: String, wall: UInt64) {
        guard !taken.isEmpty else { return }
        for (replica, mark) in taken {
            _ = note(tenant: tenant, replica: replica, cursor: mark.cursor, wall: mark.lastSeen)
        }
        since[tenant] = min(since[tenant] ?? wall, wall)
    }

    /// The tenants with marks waiting.
    var tenants: [String] { Array(marks.keys) }

    /// Writes `marks` to the replicas' records: cursors and last-seen times only move forward, and a
    /// replica whose record is gone is left alone.
    static func write(_ marks: [String: Mark], in store: any SyncStoreTransaction) throws {
        for (replica, mark) in marks.sorted(by: { $0.key < $1.key }) {
            guard var record = try store.replica(replica) else { continue }
            guard mark.cursor > record.cursor || mark.lastSeen > record.lastSeen else { continue }
            record.cursor = max(record.cursor, mark.cursor)
            record.lastSeen = max(record.lastSeen, mark.lastSeen)
            try store.setReplica(record)
        }
    }
}
