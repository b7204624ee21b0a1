import BoutiqueDB
import Foundation

/// A small deterministic generator (SplitMix64) for the reliability tests' random moments and sizes.
struct ReliabilityRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func int(in range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }

    mutating func chance(_ percent: Int) -> Bool { next() % 100 < UInt64(percent) }
}

enum Reliability {
    /// Waits until `condition` holds, at most `seconds`; `false` when it never did.
    static func poll(seconds: Double, _ condition: @Sendable () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }

    /// The numbers on the lines `prefix <n>` of a worker's output.
    static func numbers(after prefix: String, in output: String) -> [Int64] {
        output.split(separator: "\n").compactMap { line in
            line.hasPrefix(prefix + " ") ? Int64(line.dropFirst(prefix.count + 1)) : nil
        }
    }

    /// The integer in a value, or `nil`.
    static func integer(_ value: DatabaseValue) -> Int64? {
        if case .integer(let integer) = value { integer } else { nil }
    }

    /// Every file of a database: the file itself, its WAL and its shared-memory index.
    static func files(of path: String) -> [String] { [path, path + "-wal", path + "-shm"] }
}
