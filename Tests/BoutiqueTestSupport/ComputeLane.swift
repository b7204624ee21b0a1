/// One lane for the suite's long computations: a case that only computes (a property test's random
/// script, run to the end) waits for the lane, then holds it, and one thread of the cooperative pool,
/// while it runs.
///
/// Swift Testing starts every case of every parameterized test at once, and a synchronous case holds
/// its pool thread until it ends. On a 2-core machine a few dozen such cases then took the whole pool
/// for over a minute and a half: a server's request handler, a child process's answer and every
/// other test's continuation waited behind them, and a request timed out. A case waiting for the
/// lane is suspended, not blocked, so the rest of the pool stays free for everything else.
///
/// ```swift
/// @Test(arguments: TestBudget.cases(40))
/// func randomScriptsConverge(seed: UInt64) async throws {
///     try await ComputeLane.shared.run { … }
/// }
/// ```
///
/// The body runs on the case's own task, so `#expect` inside it records against that case.
public actor ComputeLane {
    public static let shared = ComputeLane()

    private var isHeld = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` once no other computation holds the lane, and returns what it returns.
    public nonisolated func run<T>(_ body: () throws -> T) async rethrows -> T {
        await acquire()
        do {
            let value = try body()
            await release()
            return value
        } catch {
            await release()
            throw error
        }
    }

    private func acquire() async {
        guard isHeld else {
            isHeld = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the lane to the longest waiting computation, or frees it.
    private func release() {
        if waiting.isEmpty {
            isHeld = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
