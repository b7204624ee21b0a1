import Synchronization

/// The writes the current task is inside of, so that a write started from inside another write on the
/// same database fails at once instead of waiting for a lock its own caller holds.
///
/// ```swift
/// try await db.write { conn in
///     Task { try await db.write { _ in } }   // inherits the marker: throws .transactionInProgress
/// }
/// ```
///
/// The marker is a task-local, so tasks created inside the closure inherit it. Each marker is switched
/// off when its write ends, so a task that was created inside a write but runs its own write later is
/// not refused.
final class ActiveWrite: Sendable {
    @TaskLocal static var current: ActiveWrite?

    /// The database whose writer is busy.
    private let database: ObjectIdentifier
    /// The write this one runs inside of, on another database.
    private let enclosing: ActiveWrite?
    /// Cleared when the write ends.
    private let isRunning = Atomic<Bool>(true)

    private init(database: ObjectIdentifier, enclosing: ActiveWrite?) {
        self.database = database
        self.enclosing = enclosing
    }

    /// Throws ``BoutiqueError/transactionInProgress`` when the current task is inside a running write
    /// on `database`.
    static func ensureOutside(of database: ObjectIdentifier) throws(BoutiqueError) {
        var marker = current
        while let active = marker {
            if active.database == database, active.isRunning.load(ordering: .acquiring) {
                throw .transactionInProgress
            }
            marker = active.enclosing
        }
    }

    /// Runs `body` marked as a write on `database`.
    static func run<T>(on database: ObjectIdentifier, _ body: () throws -> T) rethrows -> T {
        let marker = ActiveWrite(database: database, enclosing: current)
        defer { marker.isRunning.store(false, ordering: .releasing) }
        return try $current.withValue(marker) { try body() }
    }
}
