/// The ordered, append-only list of migrations a database is brought up to date with.
///
/// ```swift
/// enum AppMigrations {
///     static let plan = BoutiqueMigrationPlan {
///         BoutiqueMigration("v1_create_notes") { conn in
///             try conn.execute("CREATE TABLE note(id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL)")
///         }
///         BoutiqueMigration("v2_add_pinned_column") { conn in
///             try conn.execute("ALTER TABLE note ADD COLUMN isPinned INTEGER NOT NULL DEFAULT 0")
///         }
///     }
/// }
/// let db = try await BoutiqueDB.open(url: url, migrations: AppMigrations.plan)
/// ```
///
/// Opening runs, in order, the migrations the database has not applied yet, each in its own
/// transaction. Only append to a shipped plan: a database whose applied ids are not a prefix of the plan
/// is refused with ``BoutiqueError/migrationHistoryMismatch(applied:planned:)``.
public struct BoutiqueMigrationPlan: Sendable {
    /// The migrations, in the order they run.
    public let migrations: [BoutiqueMigration]

    /// A plan built from a list of migrations.
    public init(@BoutiqueMigrationPlanBuilder _ migrations: () -> [BoutiqueMigration]) {
        self.migrations = migrations()
    }

    /// A plan from an array of migrations.
    public init(_ migrations: [BoutiqueMigration] = []) {
        self.migrations = migrations
    }

    /// The migration ids, in order.
    public var ids: [String] { migrations.map(\.id) }

    /// Refuses a plan that names an id twice (or an empty id), before anything is opened.
    func validate() throws(BoutiqueError) {
        var seen = Set<String>()
        for migration in migrations {
            guard !migration.id.isEmpty else { throw .invalidArgument("a migration id must not be empty") }
            guard seen.insert(migration.id).inserted else { throw .duplicateMigrationID(migration.id) }
        }
    }
}
