import BoutiqueSQLite

// Comparisons between two expressions of one representation, or an expression and a Swift value
// (bound as a parameter). Equality on optionals renders `IS` / `IS NOT`, which is what Swift's `==`
// means for `nil` (SQL's `=` is never true for NULL).

extension QueryExpression where QueryValue: QueryRepresentable {
    /// `(x = y)` between two expressions; `(x IS y)` when they are optional, so that `nil == nil` holds.
    @_disfavoredOverload
    public static func == (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(lhs.queryFragment, QueryValue.isNullable ? "IS" : "=", rhs.queryFragment))
    }

    /// `(x <> y)` between two expressions; `(x IS NOT y)` when they are optional.
    @_disfavoredOverload
    public static func != (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(lhs.queryFragment, QueryValue.isNullable ? "IS NOT" : "<>", rhs.queryFragment))
    }

    /// `(x = ?)` with a bound value; `(x IS NULL)` for `nil`: `$0.title == "Groceries"`, `$0.dueDate == nil`.
    @_disfavoredOverload
    public static func == (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLExpression<Bool> {
        // A group of columns compares as a row value; an optional group with `IS`, so that `nil`
        // (NULL in every column) matches a group that is absent.
        guard QueryValue.groupedColumns == nil else {
            return SQLExpression(Operators.binary(lhs.queryFragment, QueryValue.isNullable ? "IS" : "=", QueryValue.bound(rhs)))
        }
        let value = QueryValue.encode(rhs)
        return SQLExpression(Operators.binary(lhs.queryFragment, value.isNull ? "IS" : "=", QueryFragment(binding: value)))
    }

    /// `(x <> ?)` with a bound value; `(x IS NOT NULL)` for `nil`.
    @_disfavoredOverload
    public static func != (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLExpression<Bool> {
        guard QueryValue.groupedColumns == nil else {
            return SQLExpression(
                Operators.binary(lhs.queryFragment, QueryValue.isNullable ? "IS NOT" : "<>", QueryValue.bound(rhs)))
        }
        let value = QueryValue.encode(rhs)
        return SQLExpression(
            Operators.binary(lhs.queryFragment, value.isNull ? "IS NOT" : "<>", QueryFragment(binding: value)))
    }

    /// `(x < y)` between two expressions.
    @_disfavoredOverload
    public static func < (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(lhs.queryFragment, "<", rhs.queryFragment))
    }

    /// `(x <= y)` between two expressions.
    @_disfavoredOverload
    public static func <= (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(lhs.queryFragment, "<=", rhs.queryFragment))
    }

    /// `(x > y)` between two expressions.
    @_disfavoredOverload
    public static func > (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(lhs.queryFragment, ">", rhs.queryFragment))
    }

    /// `(x >= y)` between two expressions.
    @_disfavoredOverload
    public static func >= (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(lhs.queryFragment, ">=", rhs.queryFragment))
    }

    /// `(x < ?)` with a bound value.
    @_disfavoredOverload
    public static func < (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(lhs.queryFragment, "<", QueryValue.bound(rhs)))
    }

    /// `(x <= ?)` with a bound value.
    @_disfavoredOverload
    public static func <= (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(lhs.queryFragment, "<=", QueryValue.bound(rhs)))
    }

    /// `(x > ?)` with a bound value.
    @_disfavoredOverload
    public static func > (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(lhs.queryFragment, ">", QueryValue.bound(rhs)))
    }

    /// `(x >= ?)` with a bound value.
    @_disfavoredOverload
    public static func >= (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(lhs.queryFragment, ">=", QueryValue.bound(rhs)))
    }

    /// `x IS NULL` when `value` is `nil`: `$0.rating.is(nil)`.
    public func `is`(_ value: QueryValue.QueryOutput) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(queryFragment, "IS", QueryValue.bound(value)))
    }

    /// `x IS NOT NULL` when `value` is `nil`: `$0.rating.isNot(nil)`.
    public func isNot(_ value: QueryValue.QueryOutput) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(queryFragment, "IS NOT", QueryValue.bound(value)))
    }

    /// `x BETWEEN lower AND upper` (inclusive).
    public func between(_ lower: QueryValue.QueryOutput, and upper: QueryValue.QueryOutput) -> SQLExpression<Bool> {
        SQLExpression("(" + queryFragment + " BETWEEN " + QueryValue.bound(lower) + " AND " + QueryValue.bound(upper) + ")")
    }

    /// `x IN (?, ?, …)`; an empty list matches nothing.
    public func `in`(_ values: some Sequence<QueryValue.QueryOutput>) -> SQLExpression<Bool> {
        let list = values.map { QueryValue.bound($0) }
        guard !list.isEmpty else { return SQLExpression("0") }
        return SQLExpression("(" + queryFragment + " IN (" + list.joined(separator: ", ") + "))")
    }

    /// `x IN (subquery)`.
    public func `in`<C>(_ subquery: Select<C, QueryValue.QueryOutput>) -> SQLExpression<Bool> {
        SQLExpression("(" + queryFragment + " IN (" + subquery.query + "))")
    }
}

extension Sequence {
    /// `expression IN (…)`, with the sequence as the list: `[1, 2].contains($0.id)`.
    public func contains<E: QueryExpression>(_ expression: E) -> SQLExpression<Bool>
    where E.QueryValue: QueryRepresentable, E.QueryValue.QueryOutput == Element {
        expression.in(self)
    }
}

extension ClosedRange {
    /// `(expression BETWEEN ? AND ?)`, with the range's bounds: `(10...20).contains($0.title.length())`.
    /// A range of integers is also a sequence, but its test is the two bounds, not a list of every value.
    public func contains<E: QueryExpression>(_ expression: E) -> SQLExpression<Bool>
    where E.QueryValue: QueryRepresentable, E.QueryValue.QueryOutput == Bound {
        expression.between(lowerBound, and: upperBound)
    }
}

// An optional column compared with a column of its wrapped type, as a join condition on an optional
// foreign key reads: `$1.assigneeID == $2.id`. A NULL side matches nothing, as SQL's `=` says.
extension QueryExpression {
    /// `(x = y)`: an optional expression against one of its wrapped type, as a join on an optional foreign key (`$1.assigneeID == $2.id`); NULL matches nothing.
    @_disfavoredOverload
    public static func == <Wrapped: QueryRepresentable>(
        lhs: Self, rhs: some QueryExpression<Wrapped>
    ) -> SQLExpression<Bool> where QueryValue == Wrapped? {
        SQLExpression(Operators.binary(lhs.queryFragment, "=", rhs.queryFragment))
    }

    /// `(x = y)`: an expression against an optional one of its type; NULL matches nothing.
    @_disfavoredOverload
    public static func == <Wrapped: QueryRepresentable>(
        lhs: Self, rhs: some QueryExpression<Wrapped?>
    ) -> SQLExpression<Bool> where QueryValue == Wrapped {
        SQLExpression(Operators.binary(lhs.queryFragment, "=", rhs.queryFragment))
    }
}
