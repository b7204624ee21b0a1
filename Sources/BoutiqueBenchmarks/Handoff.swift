import Foundation
import Synchronization

/// What handing work to another thread costs on this machine, as a function of how long the work runs.
///
/// On a virtual machine whose idle cores halt at once, the caller's core halts while it waits, and
/// waking it goes through the hypervisor; the longer it slept, the longer that takes. So a write's
/// trip to the writer is not a fixed cost: it grows with the transaction. This measures it with no
/// SQLite and no Swift concurrency: busy work of a set length done in place, and handed to a
/// ``HandoffThread`` while the caller sleeps.
enum HandoffCost {
    /// The work's lengths, in microseconds.
    static let lengths = [0, 10, 20, 40, 80]
    static let handoffs = 3_000

    /// Prints the extra time per hand-off for each work length: median of `rounds`, interleaved.
    static func measure(rounds: Int) throws {
        var extra = Array(repeating: [Double](), count: lengths.count)
        for round in 0...rounds {
            for (index, length) in lengths.enumerated() {
                let work = { (_: Int) in spin(for: .microseconds(length)) }
                let start = DispatchTime.now().uptimeNanoseconds
                for row in 0..<handoffs { work(row) }
                let inPlace = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                let handedOver = try HandoffThread.time(handoffs, work)
                if round > 0 { extra[index].append((handedOver - inPlace) / Double(handoffs) * 1e6) }
            }
        }
        let figures = zip(lengths, extra).map { length, samples in
            String(format: "%d µs → +%.1f µs", length, BenchmarkStatistics.median(samples))
        }
        print("  busy work handed to another thread, extra per hand-off by the work's length: " + figures.joined(separator: ", "))
    }

    private static func spin(for length: Duration) {
        guard length > .zero else { return }
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: length)
        while clock.now < end {}
    }
}

/// How this machine's idle cores wait, where Linux says: a core that halts at once when idle (a virtual
/// machine's guest with no halt polling) makes every wake-up of a sleeping thread a trip through the
/// hypervisor, which is most of what a write handed to another thread pays.
enum IdleCores {
    static func describe() -> String? {
        func read(_ path: String) -> String? {
            (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard let driver = read("/sys/devices/system/cpu/cpuidle/current_driver") else { return nil }
        var text = "idle cores: cpuidle driver \(driver)"
        if driver == "haltpoll", let poll = read("/sys/module/haltpoll/parameters/guest_halt_poll_ns") {
            text += ", guest_halt_poll_ns \(poll)"
            if poll == "0" { text += " (an idle core halts at once; each wake-up goes through the hypervisor)" }
        }
        return text
    }
}

/// Runs work on a thread of its own while the caller waits, with no Swift concurrency in between: the
/// thread watches for the next request without sleeping (as the writer's executor does between writes)
/// and the caller sleeps on a semaphore until the work is done (as an awaiting caller's thread does).
/// What this costs over running the work in place is the least any hop to another thread can cost.
final class HandoffThread: @unchecked Sendable {
    /// The row to write next, or -1 when there is none; -2 asks the thread to end.
    private let request = Atomic<Int>(-1)
    private let done = DispatchSemaphore(value: 0)
    private let work: (Int) throws -> Void
    private var failure: (any Error)?

    private init(_ work: @escaping (Int) throws -> Void) { self.work = work }

    /// Seconds for `count` calls of `work`, each handed to the thread and awaited.
    static func time(_ count: Int, _ work: @escaping (Int) throws -> Void) throws -> Double {
        let handoff = HandoffThread(work)
        Thread { handoff.serve() }.start()
        defer { handoff.request.store(-2, ordering: .releasing) }
        let start = DispatchTime.now().uptimeNanoseconds
        for row in 0..<count {
            handoff.request.store(row, ordering: .releasing)
            handoff.done.wait()
            if let failure = handoff.failure { throw failure }
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    private func serve() {
        while true {
            let row = request.load(ordering: .acquiring)
            if row == -2 { return }
            if row < 0 { continue }
            request.store(-1, ordering: .relaxed)
            do { try work(row) } catch { failure = error }
            done.signal()
        }
    }
}
