/// A hybrid-logical-clock reading: 48 bits of milliseconds since 1970, then a 16-bit counter.
///
/// ```swift
/// let stamp = HybridTimestamp(milliseconds: 1_700_000_000_000, counter: 3)
/// stamp.milliseconds   // 1_700_000_000_000
/// stamp.rawValue > HybridTimestamp(milliseconds: 1_700_000_000_000).rawValue   // true
/// ```
///
/// Ordering the raw values orders by time first, then by counter, so one integer comparison compares
/// two readings.
public struct HybridTimestamp: RawRepresentable, Comparable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// Milliseconds in the top 48 bits, the counter in the low 16.
    public let rawValue: UInt64

    /// The largest number of milliseconds a timestamp holds (about the year 10889).
    public static let maximumMilliseconds: UInt64 = (1 << 48) - 1

    /// The earliest reading.
    public static let zero = HybridTimestamp(rawValue: 0)

    /// A reading from its packed value.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// A reading of `milliseconds` (clamped to 48 bits) and `counter`.
    public init(milliseconds: UInt64, counter: UInt16 = 0) {
        rawValue = (min(milliseconds, Self.maximumMilliseconds) << 16) | UInt64(counter)
    }

    /// The wall-clock part.
    public var milliseconds: UInt64 { rawValue >> 16 }

    /// The counter part: how many readings shared the same millisecond.
    public var counter: UInt16 { UInt16(truncatingIfNeeded: rawValue) }

    /// Orders by milliseconds, then counter.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The reading as `milliseconds.counter`.
    public var description: String { "\(milliseconds).\(counter)" }
}
