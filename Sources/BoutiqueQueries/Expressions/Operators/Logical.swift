// `&&`, `||` and `!` on boolean expressions render `AND`, `OR` and `NOT`.

extension QueryExpression where QueryValue == Bool {
    @_disfavoredOverload
    public static func && (lhs: Self, rhs: some QueryExpression<Bool>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(lhs.queryFragment, "AND", rhs.queryFragment))
    }

    @_disfavoredOverload

    public static func || (lhs: Self, rhs: some QueryExpression<Bool>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(lhs.queryFragment, "OR", rhs.queryFragment))
    }

    @_disfavoredOverload

    public static prefix func ! (expression: Self) -> SQLExpression<Bool> {
        SQLExpression("(NOT " + expression.queryFragment + ")")
    }
}
