extension QueryExpression where QueryValue: QueryRepresentable {
    /// `count(x)`: the number of non-NULL values; `distinct: true` counts each value once.
    public func count(distinct: Bool = false) -> SQLExpression<Int> {
        SQLExpression("count(" + (distinct ? "DISTINCT " : "") + queryFragment + ")")
    }

    /// `max(x)`: NULL for no rows.
    @_disfavoredOverload
    public func max() -> SQLExpression<QueryValue.Optionalized> {
        SQLExpression(Operators.function("max", [queryFragment]))
    }

    /// `min(x)`: NULL for no rows.
    @_disfavoredOverload
    public func min() -> SQLExpression<QueryValue.Optionalized> {
        SQLExpression(Operators.function("min", [queryFragment]))
    }
}

// An optional column's aggregate is just as optional: NULL for no rows and for rows of NULLs alike, so
// `max()` of an `Int?` column reads as `Int?`, not `Int??`.
extension QueryExpression {
    /// `max(x)` of an optional column: NULL for no rows or only NULLs.
    public func max<Wrapped: QueryRepresentable>() -> SQLExpression<Wrapped?> where QueryValue == Wrapped? {
        SQLExpression(Operators.function("max", [queryFragment]))
    }

    /// `min(x)` of an optional column: NULL for no rows or only NULLs.
    public func min<Wrapped: QueryRepresentable>() -> SQLExpression<Wrapped?> where QueryValue == Wrapped? {
        SQLExpression(Operators.function("min", [queryFragment]))
    }

    /// `sum(x)` of an optional column: NULL for no rows or only NULLs.
    public func sum<Wrapped: QueryNumeric>() -> SQLExpression<Wrapped?> where QueryValue == Wrapped? {
        SQLExpression(Operators.function("sum", [queryFragment]))
    }
}

extension QueryExpression where QueryValue: QueryNumeric {
    /// `sum(x)`: NULL for no rows.
    @_disfavoredOverload
    public func sum() -> SQLExpression<QueryValue.Optionalized> {
        SQLExpression(Operators.function("sum", [queryFragment]))
    }

    /// `avg(x)`: a double, NULL for no rows.
    public func avg() -> SQLExpression<Double?> {
        SQLExpression(Operators.function("avg", [queryFragment]))
    }

    /// `total(x)`: like `sum`, but 0.0 for no rows.
    public func total() -> SQLExpression<Double> {
        SQLExpression(Operators.function("total", [queryFragment]))
    }
}

extension QueryExpression where QueryValue: QueryText {
    /// `group_concat(x, separator)`: the group's values joined; NULL for no rows.
    public func groupConcat(_ separator: String = ",") -> SQLExpression<String?> {
        SQLExpression(Operators.function("group_concat", [queryFragment, String.bound(separator)]))
    }
}

/// `count(*)`: the number of rows (in a group).
public func count() -> SQLExpression<Int> { SQLExpression("count(*)") }

extension QueryRepresentable {
    /// The optional form of the representation: aggregates return NULL for an empty set. (An optional
    /// column's aggregates have their own overloads, which read as the column's own type.)
    public typealias Optionalized = Self?
}
