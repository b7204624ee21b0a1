/// Builds the conditions of an upsert's `where:` closures: each line is a `Bool` expression, and the
/// lines (with `if` and `for` over them) are ANDed.
///
/// ```swift
/// Tag.insert { ($0.name, $0.uses) } values: {
///     ("home", 1)
/// } onConflict: {
///     $0.name
/// } where: {
///     !$0.isArchived              // ON CONFLICT ("name") WHERE (NOT "tag"."isArchived")
/// } doUpdate: { tag, excluded in
///     tag.uses += excluded.uses
/// } where: { tag, _ in
///     tag.uses < 100              // DO UPDATE SET … WHERE ("tag"."uses" < ?)
/// }
/// ```
///
/// The first `where:` chooses the partial unique index the conflict target names; the second keeps a
/// conflicting row unchanged when it does not hold.
@resultBuilder
public enum ConflictConditionBuilder {
    /// A condition: a column of type `Bool` or any expression of it.
    public static func buildExpression(_ condition: some QueryExpression<Bool>) -> [QueryFragment] {
        [condition.queryFragment]
    }

    /// The conditions of every line, in order.
    public static func buildBlock(_ components: [QueryFragment]...) -> [QueryFragment] {
        components.flatMap { $0 }
    }

    /// The conditions of every iteration of a `for` loop.
    public static func buildArray(_ components: [[QueryFragment]]) -> [QueryFragment] {
        components.flatMap { $0 }
    }

    /// The conditions of an `if` without `else`; none when it is false.
    public static func buildOptional(_ component: [QueryFragment]?) -> [QueryFragment] { component ?? [] }

    /// The conditions of an `if` branch.
    public static func buildEither(first component: [QueryFragment]) -> [QueryFragment] { component }

    /// The conditions of an `else` branch.
    public static func buildEither(second component: [QueryFragment]) -> [QueryFragment] { component }

    /// ` WHERE a AND b`, or nothing for no condition.
    static func whereClause(_ conditions: [QueryFragment]) -> QueryFragment {
        conditions.isEmpty ? QueryFragment() : " WHERE " + conditions.joined(separator: " AND ")
    }
}
