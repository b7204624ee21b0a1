/// The start of a `CASE` expression: `Case()` tests conditions, `Case(x)` compares `x` with values.
///
/// A `CASE` is built one `WHEN` at a time so that the compiler knows the result's type from the first
/// `then:`. Without an `else` the result is optional, because SQLite gives NULL when no `WHEN`
/// matches; `else` makes it the value's own type:
///
/// ```swift
/// Reminder.select {
///     Case($0.priority).when(1, then: "low").when(2, then: "medium").else("high")
/// }
/// // SELECT CASE "reminder"."priority" WHEN ? THEN ? WHEN ? THEN ? ELSE ? END FROM "reminder"
/// ```
///
/// `Base` is the type each `WHEN` is compared with (`Bool` for conditions); `QueryValue` is the type
/// of the values, inferred from the first `then:`.
public struct Case<Base, QueryValue> {
    let base: QueryFragment?

    /// `CASE x WHEN …`: each `WHEN` value is compared with `base` by `=`; a NULL `base` matches none.
    public init(_ base: some QueryExpression<Base>) { self.base = base.queryFragment }

    /// `CASE WHEN …`: each `WHEN` is a condition; the first that holds gives the result.
    public init() where Base == Bool { base = nil }

    /// `WHEN condition THEN value`.
    @_disfavoredOverload
    public func when(
        _ condition: some QueryExpression<Base>, then value: some QueryExpression<QueryValue>
    ) -> Cases<Base, QueryValue> {
        Cases(base: base, clauses: [Cases<Base, QueryValue>.clause(condition.queryFragment, value.queryFragment)])
    }

    /// `WHEN condition THEN value` with a value that may be NULL: the result is just as optional
    /// (`Int?`, not `Int??`).
    public func when(
        _ condition: some QueryExpression<Base>, then value: some QueryExpression<QueryValue?>
    ) -> Cases<Base, QueryValue> {
        Cases(base: base, clauses: [Cases<Base, QueryValue>.clause(condition.queryFragment, value.queryFragment)])
    }
}

// An optional base (`Case($0.priority)` of an `Int?` column) is compared with plain values: `1` cannot
// be written as an `Int?` expression, and a NULL `WHEN` would never match anyway.
extension Case {
    /// `WHEN value THEN result` for an optional base.
    @_disfavoredOverload
    public func when<Wrapped>(
        _ value: some QueryExpression<Wrapped>, then result: some QueryExpression<QueryValue>
    ) -> Cases<Base, QueryValue> where Base == Wrapped? {
        Cases(base: base, clauses: [Cases<Base, QueryValue>.clause(value.queryFragment, result.queryFragment)])
    }

    /// `WHEN value THEN result` for an optional base, with a result that may be NULL.
    public func when<Wrapped>(
        _ value: some QueryExpression<Wrapped>, then result: some QueryExpression<QueryValue?>
    ) -> Cases<Base, QueryValue> where Base == Wrapped? {
        Cases(base: base, clauses: [Cases<Base, QueryValue>.clause(value.queryFragment, result.queryFragment)])
    }
}

/// A `CASE` expression with at least one `WHEN`: NULL when none matches, so it reads as `Wrapped?`.
/// Add more `WHEN`s, or end it with ``else(_:)`` for a value that is never NULL.
public struct Cases<Base, Wrapped>: QueryExpression {
    public typealias QueryValue = Wrapped?

    let base: QueryFragment?
    var clauses: [QueryFragment]

    static func clause(_ condition: QueryFragment, _ value: QueryFragment) -> QueryFragment {
        "WHEN " + condition + " THEN " + value
    }

    /// Another `WHEN condition THEN value`, tested after the ones before it.
    public func when(_ condition: some QueryExpression<Base>, then value: some QueryExpression<Wrapped>) -> Cases {
        appending(Self.clause(condition.queryFragment, value.queryFragment))
    }

    /// Another `WHEN condition THEN value`, with a value that may be NULL.
    public func when(_ condition: some QueryExpression<Base>, then value: some QueryExpression<Wrapped?>) -> Cases {
        appending(Self.clause(condition.queryFragment, value.queryFragment))
    }

    /// `ELSE value END`: the result when no `WHEN` matches, so the whole reads as `Wrapped`.
    public func `else`(_ value: some QueryExpression<Wrapped>) -> SQLExpression<Wrapped> {
        SQLExpression(appending("ELSE " + value.queryFragment).queryFragment)
    }

    public var queryFragment: QueryFragment {
        var fragment = QueryFragment("CASE")
        if let base { fragment.append(" " + base) }
        fragment.append(" " + clauses.joined(separator: " ") + " END")
        return fragment
    }

    private func appending(_ clause: QueryFragment) -> Cases {
        var cases = self
        cases.clauses.append(clause)
        return cases
    }
}

// An optional base's later `WHEN`s take plain values too.
extension Cases {
    /// Another `WHEN value THEN result` for an optional base.
    @_disfavoredOverload
    public func when<BaseWrapped>(
        _ value: some QueryExpression<BaseWrapped>, then result: some QueryExpression<Wrapped>
    ) -> Cases where Base == BaseWrapped? {
        appending(Self.clause(value.queryFragment, result.queryFragment))
    }

    /// Another `WHEN value THEN result` for an optional base, with a result that may be NULL.
    @_disfavoredOverload
    public func when<BaseWrapped>(
        _ value: some QueryExpression<BaseWrapped>, then result: some QueryExpression<Wrapped?>
    ) -> Cases where Base == BaseWrapped? {
        appending(Self.clause(value.queryFragment, result.queryFragment))
    }
}
