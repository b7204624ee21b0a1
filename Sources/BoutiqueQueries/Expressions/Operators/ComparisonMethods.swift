import BoutiqueSQLite

// Comparisons and logic spelled as methods, as StructuredQueries spells them, so a predicate written
// `$0.priority.gte(2).and($0.isCompleted.not())` moves over unchanged. Unlike `==`, `eq` and `neq`
// always render SQL's `=` and `<>`, also on optionals: `eq(nil)` matches nothing, as it does there.

extension QueryExpression where QueryValue: QueryRepresentable {
    /// `(x = y)`, also on optionals (a NULL side matches nothing; use `is(_:)` to match NULL).
    public func eq(_ other: some QueryExpression<QueryValue>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(queryFragment, "=", other.queryFragment))
    }

    /// `(x = ?)` with a bound value.
    public func eq(_ value: QueryValue.QueryOutput) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(queryFragment, "=", QueryValue.bound(value)))
    }

    /// `(x <> y)`, also on optionals (a NULL side matches nothing; use `isNot(_:)` for NULL).
    public func neq(_ other: some QueryExpression<QueryValue>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(queryFragment, "<>", other.queryFragment))
    }

    /// `(x <> ?)` with a bound value.
    public func neq(_ value: QueryValue.QueryOutput) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(queryFragment, "<>", QueryValue.bound(value)))
    }

    /// `(x < y)`.
    public func lt(_ other: some QueryExpression<QueryValue>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(queryFragment, "<", other.queryFragment))
    }

    /// `(x < ?)` with a bound value.
    public func lt(_ value: QueryValue.QueryOutput) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(queryFragment, "<", QueryValue.bound(value)))
    }

    /// `(x > y)`.
    public func gt(_ other: some QueryExpression<QueryValue>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(queryFragment, ">", other.queryFragment))
    }

    /// `(x > ?)` with a bound value.
    public func gt(_ value: QueryValue.QueryOutput) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(queryFragment, ">", QueryValue.bound(value)))
    }

    /// `(x <= y)`.
    public func lte(_ other: some QueryExpression<QueryValue>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(queryFragment, "<=", other.queryFragment))
    }

    /// `(x <= ?)` with a bound value.
    public func lte(_ value: QueryValue.QueryOutput) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(queryFragment, "<=", QueryValue.bound(value)))
    }

    /// `(x >= y)`.
    public func gte(_ other: some QueryExpression<QueryValue>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(queryFragment, ">=", other.queryFragment))
    }

    /// `(x >= ?)` with a bound value.
    public func gte(_ value: QueryValue.QueryOutput) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(queryFragment, ">=", QueryValue.bound(value)))
    }

    /// `(x IS y)` between two expressions of one type: `$0.dueDate.is($0.createdAt)`.
    public func `is`(_ other: some QueryExpression<QueryValue>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(queryFragment, "IS", other.queryFragment))
    }

    /// `(x IS NOT y)` between two expressions of one type.
    public func isNot(_ other: some QueryExpression<QueryValue>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(queryFragment, "IS NOT", other.queryFragment))
    }
}

extension QueryExpression where QueryValue == Bool {
    /// `(x AND y)`: both conditions hold.
    public func and(_ other: some QueryExpression<Bool>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(queryFragment, "AND", other.queryFragment))
    }

    /// `(x OR y)`: either condition holds.
    public func or(_ other: some QueryExpression<Bool>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(queryFragment, "OR", other.queryFragment))
    }

    /// `(NOT x)`: the condition does not hold.
    public func not() -> SQLExpression<Bool> {
        SQLExpression("(NOT " + queryFragment + ")")
    }
}

// In an `update { }` closure a boolean column reads as an `SQLExpression<Bool>`, so flipping it in place
// assigns its negation: `$0.isDone.toggle()` sets `isDone = (NOT isDone)`.
extension SQLExpression<Bool> {
    /// Replaces the expression with its negation; on an updated column, assigns `column = (NOT column)`.
    public mutating func toggle() {
        self = SQLExpression("(NOT " + queryFragment + ")")
    }
}
