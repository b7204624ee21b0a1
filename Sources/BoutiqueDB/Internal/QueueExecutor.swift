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
/// SQLite calls block their thread (disk I/O, busy waits on another process's lock, a closure that
/// takes its time). Running them on the cooperative pool would starve every other task of the process
/// (it has one thread per core), so each connection owner gets a queue of its own; dispatch adds threads
/// when queues block. The sync server's PostgreSQL store runs its blocking libpq calls the same way
/// (hence `package`).
package final class QueueExecutor: SerialExecutor {
    private static let marker = DispatchSpecificKey<Bool>()

    private let queue: DispatchQueue

    package init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.marker, value: true)
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// `true` on a thread running a job of some `QueueExecutor`: where SQLite work belongs.
    static var isOnDatabaseQueue: Bool {
        DispatchQueue.getSpecific(key: marker) ?? false
    }
}
