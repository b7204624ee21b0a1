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

extension QueryExpression where QueryValue: QueryRepresentable {
    /// `(x IS y)` between two expressions of one type: `$0.dueDate.is($0.createdAt)`.
    public func `is`(_ other: some QueryExpression<QueryValue>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(queryFragment, "IS", other.queryFragment))
    }

    /// `(x IS NOT y)` between two expressions of one type.
    public func isNot(_ other: some QueryExpression<QueryValue>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(queryFragment, "IS NOT", other.queryFragment))
    }
}

extension QueryExpression where QueryValue == String {
    /// `(x || y)`: two text expressions joined, as Swift's `+` joins strings:
    /// `$0.title + $0.notes.coalesce("")`.
    @_disfavoredOverload
    public static func + (lhs: Self, rhs: some QueryExpression<String>) -> SQLExpression<String> {
        SQLExpression(Operators.binary(lhs.queryFragment, "||", rhs.queryFragment))
    }

    /// `(x || ?)`: a text expression and a bound string: `$0.title + "!"`.
    @_disfavoredOverload
    public static func + (lhs: Self, rhs: String) -> SQLExpression<String> {
        SQLExpression(Operators.binary(lhs.queryFragment, "||", String.bound(rhs)))
    }
}
