import BoutiqueSQLite
import Foundation
import Synchronization

/// A one-way signal between a test and a database closure: opened once, waited for with a timeout.
///
/// Closures run on the database's own threads, so they may block in ``waitBlocking(seconds:)``; test code
/// uses ``wait(seconds:)``, which suspends instead of blocking a cooperative thread.
final class Latch: Sendable {
    private let isOpen = Atomic<Bool>(false)

    func open() { isOpen.store(true, ordering: .releasing) }

    var opened: Bool { isOpen.load(ordering: .acquiring) }

    /// Blocks the calling thread until opened; `false` after ``hangDeadline(seconds:)``.
    func waitBlocking(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(hangDeadline(seconds: seconds))
        while !opened {
            if Date() > deadline { return false }
            Thread.sleep(forTimeInterval: 0.001)
        }
        return true
    }

    /// Suspends until opened; `false` after ``hangDeadline(seconds:)``.
    func wait(seconds: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(hangDeadline(seconds: seconds))
        while !opened {
            if Date() > deadline { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }
}

/// A value set from one thread and read from another.
final class Box<Value: Sendable>: Sendable {
    private let storage: Lock<Value>

    init(_ value: Value) { storage = Lock(value) }

    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    func update(_ change: (inout Value) -> Void) {
        storage.withLock { change(&$0) }
    }
}
