// `eq`, `neq`, `is` and `isNot` between an optional expression and one of its wrapped type, as a
// join on an optional foreign key reads (`$0.assigneeID.eq($1.id)`), either way round. They render
// the same operators as between expressions of one type; a NULL side matches nothing with `=` and
// `<>`, and `IS` compares it as a value. Disfavored, so that an exact type match is preferred.

extension QueryExpression {
    /// `(x = y)`: an optional expression against one of its wrapped type.
    @_disfavoredOverload
    public func eq<Wrapped: QueryRepresentable>(_ other: some QueryExpression<Wrapped>) -> SQLExpression<Bool>
    where QueryValue == Wrapped? {
        SQLExpression(Operators.binary(queryFragment, "=", other.queryFragment))
    }

    /// `(x = y)`: an expression against an optional one of its type.
    @_disfavoredOverload
    public func eq<Wrapped: QueryRepresentable>(_ other: some QueryExpression<Wrapped?>) -> SQLExpression<Bool>
    where QueryValue == Wrapped {
        SQLExpression(Operators.binary(queryFragment, "=", other.queryFragment))
    }

    /// `(x <> y)`: an optional expression against one of its wrapped type.
    @_disfavoredOverload
    public func neq<Wrapped: QueryRepresentable>(_ other: some QueryExpression<Wrapped>) -> SQLExpression<Bool>
    where QueryValue == Wrapped? {
        SQLExpression(Operators.binary(queryFragment, "<>", other.queryFragment))
    }

    /// `(x <> y)`: an expression against an optional one of its type.
    @_disfavoredOverload
    public func neq<Wrapped: QueryRepresentable>(_ other: some QueryExpression<Wrapped?>) -> SQLExpression<Bool>
    where QueryValue == Wrapped {
        SQLExpression(Operators.binary(queryFragment, "<>", other.queryFragment))
    }

    /// `(x IS y)`: an optional expression against one of its wrapped type.
    @_disfavoredOverload
    public func `is`<Wrapped: QueryRepresentable>(_ other: some QueryExpression<Wrapped>) -> SQLExpression<Bool>
    where QueryValue == Wrapped? {
        SQLExpression(Operators.binary(queryFragment, "IS", other.queryFragment))
    }

    /// `(x IS y)`: an expression against an optional one of its type.
    @_disfavoredOverload
    public func `is`<Wrapped: QueryRepresentable>(_ other: some QueryExpression<Wrapped?>) -> SQLExpression<Bool>
    where QueryValue == Wrapped {
        SQLExpression(Operators.binary(queryFragment, "IS", other.queryFragment))
    }

    /// `(x IS NOT y)`: an optional expression against one of its wrapped type.
    @_disfavoredOverload
    public func isNot<Wrapped: QueryRepresentable>(_ other: some QueryExpression<Wrapped>) -> SQLExpression<Bool>
    where QueryValue == Wrapped? {
        SQLExpression(Operators.binary(queryFragment, "IS NOT", other.queryFragment))
    }

    /// `(x IS NOT y)`: an expression against an optional one of its type.
    @_disfavoredOverload
    public func isNot<Wrapped: QueryRepresentable>(_ other: some QueryExpression<Wrapped?>) -> SQLExpression<Bool>
    where QueryValue == Wrapped {
        SQLExpression(Operators.binary(queryFragment, "IS NOT", other.queryFragment))
    }
}
