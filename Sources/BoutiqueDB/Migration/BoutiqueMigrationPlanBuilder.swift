/// Builds a ``BoutiqueMigrationPlan`` from migrations listed one per line; `if`, `for` and nested plans
/// work too.
///
/// ```swift
/// BoutiqueMigrationPlan {
///     BoutiqueMigration("v1_create_notes") { conn in try conn.execute("CREATE TABLE note(id TEXT)") }
///     if includeSamples { SampleData.migrations }   // a [BoutiqueMigration] or another plan
/// }
/// ```
@resultBuilder
public enum BoutiqueMigrationPlanBuilder {
    /// A migration listed on its own.
    public static func buildExpression(_ migration: BoutiqueMigration) -> [BoutiqueMigration] { [migration] }

    /// An array of migrations, in order.
    public static func buildExpression(_ migrations: [BoutiqueMigration]) -> [BoutiqueMigration] { migrations }

    /// Another plan's migrations, in order.
    public static func buildExpression(_ plan: BoutiqueMigrationPlan) -> [BoutiqueMigration] { plan.migrations }

    /// The migrations of every line, in order.
    public static func buildBlock(_ parts: [BoutiqueMigration]...) -> [BoutiqueMigration] { parts.flatMap { $0 } }

    /// The migrations of an `if` without `else`; none when the condition is false.
    public static func buildOptional(_ part: [BoutiqueMigration]?) -> [BoutiqueMigration] { part ?? [] }

    /// The migrations of an `if` branch.
    public static func buildEither(first part: [BoutiqueMigration]) -> [BoutiqueMigration] { part }

    /// The migrations of an `else` branch.
    public static func buildEither(second part: [BoutiqueMigration]) -> [BoutiqueMigration] { part }

    /// The migrations of every iteration of a `for` loop.
    public static func buildArray(_ parts: [[BoutiqueMigration]]) -> [BoutiqueMigration] { parts.flatMap { $0 } }
}
