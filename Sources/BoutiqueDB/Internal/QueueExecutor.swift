import Dispatch

/// A serial executor that runs an actor's jobs on its own dispatch queue.
///
/// ```swift
/// actor Worker {
///     let executor = QueueExecutor(label: "worker")
///     nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
/// }
/// ```
///
/// SQLite calls block their thread (disk I/O, busy waits on another process's lock). Running them on the
/// cooperative pool would starve every other task of the process (it has one thread per core), so each
/// connection owner gets a queue of its own; dispatch adds threads when queues block.
final class QueueExecutor: SerialExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
