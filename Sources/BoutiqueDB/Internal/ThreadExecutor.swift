import Foundation
import Synchronization

/// A serial executor with a thread of its own, which after running its last job keeps watching for the
/// next one for a moment before it goes to sleep.
///
/// ```swift
/// actor Writer {
///     let executor = ThreadExecutor(name: "writer")
///     nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
/// }
/// ```
///
/// Why not a dispatch queue, as the readers use: a write is usually a short transaction awaited by a
/// caller on another thread, and a caller that writes often writes again as soon as the last write
/// returns. Waking a sleeping thread for each of them costs a good part of the transaction (on a
/// virtual machine a wake-up across cores goes through the hypervisor: several microseconds each way,
/// against a 15–20 µs one-row transaction). A thread that looks for work for ``idleSpin`` after each
/// job is still awake when the next write comes, so that hop costs nothing; when writes stop, it
/// sleeps and uses no CPU. Like the queue it replaces it keeps blocking SQLite calls off the
/// cooperative pool.
///
/// The spin is short on purpose, and it stops whenever `shouldSpin` says the core is wanted elsewhere:
/// a writer that kept a core busy between writes would take it from concurrent reads on a machine with
/// few cores.
final class ThreadExecutor: SerialExecutor {
    /// How long the thread keeps looking for a job before it sleeps: longer than a caller takes to
    /// resume and send the next write, short enough to be lost in the cost of the write itself.
    static let idleSpin: Duration = .microseconds(50)

    private let queue: JobQueue

    /// Starts the thread. `onExit` runs on it when it ends, after the executor has gone.
    ///
    /// - Parameters:
    ///   - idleSpin: how long the thread looks for its next job before it sleeps.
    ///   - shouldSpin: asked while the thread looks for its next job; once it returns `false` the thread
    ///     sleeps at once (the database passes "no read is running", so reads get every core).
    init(
        name: String, idleSpin: Duration = ThreadExecutor.idleSpin,
        shouldSpin: @escaping @Sendable () -> Bool = { true }, onExit: (@Sendable () -> Void)? = nil
    ) {
        queue = JobQueue(idleSpin: idleSpin, shouldSpin: shouldSpin)
        let thread = Thread { [queue] in
            // Named from the thread itself: on Linux only that reaches the system's name for it.
            Thread.current.name = name
            queue.runJobs()
            onExit?()
        }
        // Closures that users write run here; give them the stack a main thread has.
        thread.stackSize = 8 << 20
        // The interface usually waits for what runs here. (A dispatch queue would take each job's
        // priority from its sender; this thread serves every sender at the priority of the waiting UI.)
        thread.qualityOfService = .userInitiated
        thread.start()
    }

    deinit {
        // Every queued job keeps the executor (see `enqueue`): nothing is left to run.
        queue.stop()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        // The job runs on this executor later, so it keeps it until then, whoever else lets go of it.
        queue.push(UnownedJob(job), executor: Unmanaged.passRetained(self))
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// `true` while the thread sleeps waiting for a job (for tests).
    var isSleeping: Bool { queue.isSleepingNow }

    /// `true` on the thread of some `ThreadExecutor`.
    static var isOnExecutorThread: Bool {
        Thread.current.threadDictionary[threadMarker] as? Bool ?? false
    }

    fileprivate static let threadMarker = "BoutiqueDB.ThreadExecutor"
}

/// The jobs waiting for a ``ThreadExecutor``'s thread, and that thread's loop.
private final class JobQueue: @unchecked Sendable {
    private struct Entry {
        let job: UnownedJob
        /// Retained by `enqueue`, released once the job has run.
        let executor: Unmanaged<ThreadExecutor>
    }

    // `entries`, `isSleeping` and `isStopped` are guarded by `condition`'s lock.
    private let condition = NSCondition()
    private var entries: [Entry] = []
    private var isSleeping = false
    private var isStopped = false
    /// The number of entries, readable without the lock while the thread spins.
    private let waiting = Atomic<Int>(0)
    private let idleSpin: Duration
    private let shouldSpin: @Sendable () -> Bool

    init(idleSpin: Duration, shouldSpin: @escaping @Sendable () -> Bool) {
        self.idleSpin = idleSpin
        self.shouldSpin = shouldSpin
    }

    var isSleepingNow: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isSleeping
    }

    func push(_ job: UnownedJob, executor: Unmanaged<ThreadExecutor>) {
        condition.lock()
        entries.append(Entry(job: job, executor: executor))
        waiting.add(1, ordering: .releasing)
        if isSleeping { condition.signal() }
        condition.unlock()
    }

    func stop() {
        condition.lock()
        isStopped = true
        condition.signal()
        condition.unlock()
    }

    /// The thread's body: runs jobs in order until stopped.
    func runJobs() {
        Thread.current.threadDictionary[ThreadExecutor.threadMarker] = true
        var batch: [Entry] = []
        while takeJobs(into: &batch) {
            for entry in batch {
                entry.job.runSynchronously(on: entry.executor.takeUnretainedValue().asUnownedSerialExecutor())
                entry.executor.release()
            }
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// Waits for jobs and moves them into `batch`; `false` once the executor has stopped.
    private func takeJobs(into batch: inout [Entry]) -> Bool {
        spinWhileIdle()
        condition.lock()
        defer { condition.unlock() }
        while entries.isEmpty && !isStopped {
            isSleeping = true
            condition.wait()
            isSleeping = false
        }
        if entries.isEmpty { return false }
        swap(&batch, &entries)
        waiting.subtract(batch.count, ordering: .relaxed)
        return true
    }

    /// Watches for a job for up to `idleSpin` without taking the lock, while `shouldSpin` allows it.
    private func spinWhileIdle() {
        guard waiting.load(ordering: .acquiring) == 0 else { return }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: idleSpin)
        while waiting.load(ordering: .acquiring) == 0, shouldSpin(), clock.now < deadline {}
    }
}
