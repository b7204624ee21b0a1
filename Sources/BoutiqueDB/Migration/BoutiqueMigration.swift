/// One named, frozen step of a database's schema history.
///
/// ```swift
/// BoutiqueMigration("v2_add_pinned_column") { conn in
///     try conn.execute("ALTER TABLE note ADD COLUMN isPinned INTEGER NOT NULL DEFAULT 0")
/// }
/// ```
///
/// The id is recorded in the database when the migration commits, so it must never change once the
/// migration has shipped; neither should its body (write a new migration instead).
public struct BoutiqueMigration: Sendable {
    /// The migration's name, unique in its plan.
    public let id: String

    let body: @Sendable (DatabaseConnection) throws -> Void

    /// - Parameters:
    ///   - id: The migration's name, unique in its plan and never changed once shipped.
    ///   - body: The statements, run in a transaction of their own with foreign keys checked at the end.
    public init(_ id: String, _ body: @escaping @Sendable (DatabaseConnection) throws -> Void) {
        self.id = id
        self.body = body
    }
}
