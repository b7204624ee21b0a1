import Dispatch
import Synchronization

/// Runs file work that blocks its thread (hashing and copying a large file) on a dispatch thread, not
/// on the cooperative pool, whose few threads every task of the process shares; the task's
/// cancellation reaches the work as a flag it checks between chunks.
///
/// ```swift
/// let attachment = try await BlockingFileWork.run { isCancelled in
///     try folder.store(.file(descriptor), contentType: type, isCancelled: isCancelled)
/// }
/// ```
package enum BlockingFileWork {
    package static func run<T: Sendable>(_ work: @escaping @Sendable (_ isCancelled: () -> Bool) throws -> T) async throws -> T {
        let cancelled = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global(qos: .utility).async {
                    continuation.resume(with: Result { try work { cancelled.isSet } })
                }
            }
        } onCancel: {
            cancelled.set()
        }
    }

    /// Set once, read from another thread.
    private final class CancellationFlag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .relaxed) }
        func set() { value.store(true, ordering: .relaxed) }
    }
}
