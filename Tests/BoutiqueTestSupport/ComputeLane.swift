import Dispatch

/// One lane for the suite's long computations: a case that only computes (a property test's random
/// script, run to the end) runs on the lane's own thread, one case at a time, instead of on a thread
/// of the cooperative pool.
///
/// Swift Testing starts every case of every parameterized test at once, and a synchronous case holds
/// the thread it runs on until it ends. On a 2-core machine the cooperative pool has two threads: a
/// few dozen such cases took the whole pool for over a minute and a half, and under ThreadSanitizer a
/// single minutes-long computation beside one blocked thread stalled every other test (a server's
/// request handler, a child process's answer, every continuation) until their deadlines ran out. On
/// the lane the computation shares the cores with the rest as any thread does, and the pool stays
/// free for everything else.
///
/// ```swift
/// @Test(arguments: TestBudget.cases(40))
/// func randomScriptsConverge(seed: UInt64) async throws {
///     try await ComputeLane.shared.run { … }
/// }
/// ```
///
/// The body runs on the case's own task (the lane is the task's preferred executor while it runs), so
/// `#expect` inside it records against that case.
public final class ComputeLane: TaskExecutor {
    public static let shared = ComputeLane()

    /// A serial queue: its jobs run one at a time, on a thread of dispatch's own (not the pool's).
    private let queue = DispatchQueue(label: "BoutiqueTestSupport.ComputeLane")

    private init() {
        queue.setSpecific(key: Self.marker, value: ())
    }

    /// Runs `body` on the lane once the computations queued before it have run, and returns what it
    /// returns.
    public func run<T, Failure: Error>(_ body: () throws(Failure) -> T) async throws(Failure) -> T {
        // A nonisolated async operation starts on the task's preferred executor: the lane's queue
        // (`ComputeLaneTests` checks that the body runs there, one at a time).
        try await withTaskExecutorPreference(self) { () async throws(Failure) -> T in try body() }
    }

    /// Whether the calling code runs on the lane's queue (for the lane's own test).
    public var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.marker) != nil }

    private static let marker = DispatchSpecificKey<Void>()

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
