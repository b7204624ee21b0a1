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

    /// The same queue as a task executor: a task that prefers it starts on the queue, so that its hop
    /// to the actor this executor serves is a job on the queue the task is already on, not a thread
    /// woken up (see ``QueueTaskExecutor``).
    package let taskExecutor: QueueTaskExecutor

    package init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.marker, value: true)
        taskExecutor = QueueTaskExecutor(queue: queue)
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

/// A task executor on a ``QueueExecutor``'s dispatch queue.
///
/// ```swift
/// Task(executorPreference: reader.taskExecutor) { try await reader.read(…) }
/// ```
///
/// A task started from a thread that is not in the cooperative pool (the writer's, right after a
/// commit) first waits for a pool thread to wake up, then for the reader's queue to wake one: two
/// wake-ups, each several microseconds on a virtual machine. Preferring the queue's task executor, the
/// task starts on the queue, and its hop to the reader is the next job there, on the same thread.
package final class QueueTaskExecutor: TaskExecutor {
    private let queue: DispatchQueue

    fileprivate init(queue: DispatchQueue) { self.queue = queue }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
