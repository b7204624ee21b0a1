/// Who wrote a value when: a hybrid-logical-clock reading and the writing replica's id.
///
/// ```swift
/// let a = SyncStamp(time: HybridTimestamp(milliseconds: 10), replica: "a")
/// let b = SyncStamp(time: HybridTimestamp(milliseconds: 10), replica: "b")
/// a < b   // same time: the replica id breaks the tie, the same way on every device
/// ```
///
/// Stamps are totally ordered by time, then replica id: the last writer wins, and every device and the
/// server agree on who was last.
public struct SyncStamp: Comparable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// When the write happened, by the writer's clock.
    public var time: HybridTimestamp
    /// The id of the replica (device database, or the server) that wrote it.
    public var replica: String

    /// The stamp of a write at `time` by `replica`.
    public init(time: HybridTimestamp, replica: String) {
        self.time = time
        self.replica = replica
    }

    /// Orders by time, then replica id.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        if lhs.time != rhs.time { return lhs.time < rhs.time }
        return MergeOrder.replicaPrecedes(lhs.replica, rhs.replica)
    }

    /// The time and the replica, `ms.counter@replica`.
    public var description: String { "\(time)@\(replica)" }
}

/// The tie-breaks of the merge rule, in one place.
enum MergeOrder {
    /// Whether replica `a` loses a tie at equal time against `b` (byte order of the ids).
    @inline(__always)
    static func replicaPrecedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
