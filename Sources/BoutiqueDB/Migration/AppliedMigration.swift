import Foundation

/// A migration the database has applied, and when.
///
/// ```swift
/// for migration in try await db.appliedMigrations {
///     print(migration.id, migration.appliedAt)
/// }
/// ```
public struct AppliedMigration: Sendable, Hashable {
    /// The migration's id.
    public let id: String
    /// When its transaction committed.
    public let appliedAt: Date

    /// A record of migration `id`, applied at `appliedAt`.
    public init(id: String, appliedAt: Date) {
        self.id = id
        self.appliedAt = appliedAt
    }
}
