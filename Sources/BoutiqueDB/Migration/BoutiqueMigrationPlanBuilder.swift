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
    public static func buildExpression(_ migration: BoutiqueMigration) -> [BoutiqueMigration] { [migration] }

    public static func buildExpression(_ migrations: [BoutiqueMigration]) -> [BoutiqueMigration] { migrations }

    public static func buildExpression(_ plan: BoutiqueMigrationPlan) -> [BoutiqueMigration] { plan.migrations }

    public static func buildBlock(_ parts: [BoutiqueMigration]...) -> [BoutiqueMigration] { parts.flatMap { $0 } }

    public static func buildOptional(_ part: [BoutiqueMigration]?) -> [BoutiqueMigration] { part ?? [] }

    public static func buildEither(first part: [BoutiqueMigration]) -> [BoutiqueMigration] { part }

    public static func buildEither(second part: [BoutiqueMigration]) -> [BoutiqueMigration] { part }

    public static func buildArray(_ parts: [[BoutiqueMigration]]) -> [BoutiqueMigration] { parts.flatMap { $0 } }
}
