#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a pthread mutex: the package's one lock.
///
/// ```swift
/// let counts = Lock<[String: Int]>([:])
/// counts.withLock { $0["note", default: 0] += 1 }
/// ```
///
/// Not `Synchronization.Mutex`: on Linux it waits on futexes, which ThreadSanitizer does not see, so
/// every access under it is reported as a race and real races drown in the reports. A pthread mutex is
/// understood by the sanitizer on every platform, and costs the same when uncontended.
package final class Lock<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched between `pthread_mutex_lock` and `pthread_mutex_unlock` of
    // `mutex`, which is allocated once, never moved, and destroyed with the lock.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ value: consuming sending Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    @inlinable
    package func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        lock()
        defer { unlock() }
        return try body(&valueStorage)
    }

    @usableFromInline
    func lock() { pthread_mutex_lock(mutex) }

    @usableFromInline
    func unlock() { pthread_mutex_unlock(mutex) }

    @usableFromInline
    var valueStorage: Value {
        _read { yield value }
        _modify { yield &value }
    }
}
