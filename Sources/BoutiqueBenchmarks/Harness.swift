import Foundation

/// One way of doing a workload's work; `run` returns a checksum so the work cannot be optimised away.
struct Variant {
    let name: String
    let run: () throws -> Int
}

/// A workload measured with several variants, the first being the raw C API baseline.
struct Workload {
    let name: String
    let variants: [Variant]
}

/// Timings of one variant across rounds, in seconds.
struct Timings {
    var samples: [Double] = []
    var median: Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
    var min: Double { samples.min() ?? .nan }
    var max: Double { samples.max() ?? .nan }
}

/// Runs variants round-robin (A B A B …) so that machine noise hits them alike, after one warm-up round,
/// and prints medians with min and max, and each variant's ratio to the baseline.
struct Harness {
    var rounds: Int

    func measure(_ workload: Workload) throws { _ = try measureReturningMedians(workload) }

    /// ``measure(_:)``, returning each variant's median in seconds.
    func measureReturningMedians(_ workload: Workload) throws -> [Double] {
        var checksums: [Int?] = Array(repeating: nil, count: workload.variants.count)
        for (index, variant) in workload.variants.enumerated() { checksums[index] = try variant.run() }
        if Set(checksums.compactMap { $0 }).count > 1 {
            print("! \(workload.name): variants disagree on the checksum \(checksums)")
        }
        var timings = Array(repeating: Timings(), count: workload.variants.count)
        for _ in 0..<rounds {
            for (index, variant) in workload.variants.enumerated() {
                let start = DispatchTime.now().uptimeNanoseconds
                _ = try variant.run()
                let end = DispatchTime.now().uptimeNanoseconds
                timings[index].samples.append(Double(end - start) / 1e9)
            }
        }
        print("\n\(workload.name) — median of \(rounds) rounds (min … max), ratio to \(workload.variants[0].name)")
        let baseline = timings[0].median
        for (index, variant) in workload.variants.enumerated() {
            let timing = timings[index]
            let ratio = timing.median / baseline
            let line = "  " + variant.name.padding(toLength: 34, withPad: " ", startingAt: 0)
                + format(timing.median) + "  (" + format(timing.min) + " … " + format(timing.max) + ")  "
                + String(format: "%.3f×", ratio)
            print(line)
        }
        return timings.map(\.median)
    }

    private func format(_ seconds: Double) -> String {
        String(format: "%8.2f ms", seconds * 1000)
    }
}
