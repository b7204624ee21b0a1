extension QueryExpression where QueryValue: QueryRepresentable {
    /// `count(x)`: the number of non-NULL values; `distinct: true` counts each value once.
    public func count(distinct: Bool = false) -> SQLExpression<Int> {
        SQLExpression("count(" + (distinct ? "DISTINCT " : "") + queryFragment + ")")
    }

    /// `max(x)`: NULL for no rows.
    public func max() -> SQLExpression<QueryValue.Optionalized> {
        SQLExpression(Operators.function("max", [queryFragment]))
    }

    /// `min(x)`: NULL for no rows.
    public func min() -> SQLExpression<QueryValue.Optionalized> {
        SQLExpression(Operators.function("min", [queryFragment]))
    }
}

extension QueryExpression where QueryValue: QueryNumeric {
    /// `sum(x)`: NULL for no rows.
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
    /// The optional form of the representation (itself when already optional): aggregates return NULL
    /// for an empty set.
    public typealias Optionalized = Self?
}
