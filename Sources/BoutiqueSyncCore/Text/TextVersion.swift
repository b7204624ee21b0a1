/// What a replica of a ``CollaborativeText`` has applied: per writing replica, how many of its
/// counters (characters inserted and deletions made) it has seen, in order.
///
/// ```swift
/// var stable = phone.version
/// stable.formMinimum(laptop.version)       // what both have seen
/// try phone.compact(stableThrough: stable)  // once no operation still in flight predates it
/// ```
///
/// A replica applies each writer's operations in the writer's order, so one number per writer says
/// everything it has seen; versions compare and combine per writer.
public struct TextVersion: Hashable, Sendable, CustomStringConvertible {
    /// Per replica id, the first counter not yet seen. Replicas not named have seen nothing.
    public private(set) var counters: [String: Int]

    /// A version that has seen, of each replica, the counters below the given one.
    public init(_ counters: [String: Int] = [:]) {
        self.counters = counters.filter { $0.value > 0 }
    }

    /// The first counter of `replica` not yet seen.
    public subscript(replica: String) -> Int {
        get { counters[replica] ?? 0 }
        set { counters[replica] = newValue > 0 ? newValue : nil }
    }

    /// Whether this version has seen the character or deletion `id`.
    public func contains(_ id: TextElementID) -> Bool { id.counter < self[id.replica] }

    /// Whether this version has seen everything `other` has.
    public func includes(_ other: TextVersion) -> Bool {
        other.counters.allSatisfy { self[$0.key] >= $0.value }
    }

    /// Keeps, per replica, the smaller of the two counters: what both versions have seen.
    public mutating func formMinimum(_ other: TextVersion) {
        counters = counters.reduce(into: [:]) { result, entry in
            let least = min(entry.value, other[entry.key])
            if least > 0 { result[entry.key] = least }
        }
    }

    /// Keeps, per replica, the larger of the two counters: what either version has seen.
    public mutating func formMaximum(_ other: TextVersion) {
        for (replica, counter) in other.counters where counter > self[replica] { counters[replica] = counter }
    }

    /// The counters, `replica:counter` sorted by replica.
    public var description: String {
        "[" + counters.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ", ") + "]"
    }
}
