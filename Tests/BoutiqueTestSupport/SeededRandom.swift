/// A small deterministic generator (SplitMix64) for the tests that draw random inputs: every run sees
/// the same inputs, and a failure names the seed that replays it.
///
/// ```swift
/// var random = SeededRandom(seed: 42)
/// let size = random.int(in: 1...100)
/// ```
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// A number in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }

    /// `true` with the given chance, in percent.
    public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// One of `values`, which must not be empty.
    public mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }
}
