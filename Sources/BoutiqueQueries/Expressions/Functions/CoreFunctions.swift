extension QueryExpression where QueryValue: QueryRepresentable {
    /// `coalesce(x, y)`: `x` unless it is NULL, then `y`. (A plain Swift value, which is an expression
    /// too, takes the overload below: both bind it.)
    @_disfavoredOverload
    public func coalesce<Wrapped: QueryRepresentable>(
        _ other: some QueryExpression<Wrapped>
    ) -> SQLExpression<Wrapped> where QueryValue == Wrapped? {
        SQLExpression(Operators.function("coalesce", [queryFragment, other.queryFragment]))
    }

    /// `coalesce(x, ?)`.
    public func coalesce<Wrapped: QueryRepresentable>(
        _ value: Wrapped.QueryOutput
    ) -> SQLExpression<Wrapped> where QueryValue == Wrapped? {
        SQLExpression(Operators.function("coalesce", [queryFragment, Wrapped.bound(value)]))
    }

    /// `??` is `coalesce`: `$0.rating ?? 0`.
    @_disfavoredOverload
    public static func ?? <Wrapped: QueryRepresentable>(
        lhs: Self, rhs: Wrapped.QueryOutput
    ) -> SQLExpression<Wrapped> where QueryValue == Wrapped? {
        lhs.coalesce(rhs)
    }
}
