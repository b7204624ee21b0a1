/// The clock that stamps a database's write transactions: never goes back, and moves past every
/// stamp it has seen, so a later write on any device that has seen an earlier one is stamped later.
///
/// ```swift
/// var clock = HybridLogicalClock()
/// let first = clock.tick(now: 1_700_000_000_000)
/// let second = clock.tick(now: 1_699_999_000_000)   // the wall clock went back: still later
/// clock.observe(remoteStamp)                         // a pulled change moves the clock forward
/// ```
///
/// A tick takes `max(last + 1, now)`: the wall clock when it moves forward, otherwise the counter. A
/// counter that fills up carries into the milliseconds, which stays correct (readings only grow).
public struct HybridLogicalClock: Sendable, Hashable {
    /// The latest reading handed out or observed.
    public private(set) var last: HybridTimestamp

    /// A clock whose latest reading is `last`.
    public init(last: HybridTimestamp = .zero) { self.last = last }

    /// The stamp for a new local transaction at wall-clock time `now` (milliseconds since 1970).
    public mutating func tick(now milliseconds: UInt64) -> HybridTimestamp {
        let wall = HybridTimestamp(milliseconds: milliseconds)
        let next = last.rawValue == UInt64.max ? last : HybridTimestamp(rawValue: last.rawValue + 1)
        last = max(next, wall)
        return last
    }

    /// `wall` (milliseconds since 1970) moved by `offset` milliseconds, the server's clock minus this
    /// device's, without leaving the clock's range: the wall time a device whose clock is off stamps with.
    ///
    /// ```swift
    /// HybridLogicalClock.corrected(1_700_000_300_000, by: -300_000)   // 1_700_000_000_000
    /// ```
    public static func corrected(_ wall: UInt64, by offset: Int64) -> UInt64 {
        guard offset >= 0 else { return wall - min(wall, offset.magnitude) }
        let (sum, overflow) = wall.addingReportingOverflow(UInt64(offset))
        return overflow ? .max : sum
    }

    /// Moves the clock past a stamp seen in a remote change or a server's reply.
    public mutating func observe(_ stamp: HybridTimestamp) {
        if stamp > last { last = stamp }
    }
}
