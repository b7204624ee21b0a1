// `&&`, `||` and `!` on boolean expressions render `AND`, `OR` and `NOT`.

extension QueryExpression where QueryValue == Bool {
    /// `(x AND y)`: both conditions hold.
    @_disfavoredOverload
    public static func && (lhs: Self, rhs: some QueryExpression<Bool>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(lhs.queryFragment, "AND", rhs.queryFragment))
    }

    /// `(x OR y)`: either condition holds.
    @_disfavoredOverload
    public static func || (lhs: Self, rhs: some QueryExpression<Bool>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(lhs.queryFragment, "OR", rhs.queryFragment))
    }

    /// `(NOT x)`: the condition does not hold.
    @_disfavoredOverload
    public static prefix func ! (expression: Self) -> SQLExpression<Bool> {
        SQLExpression("(NOT " + expression.queryFragment + ")")
    }
}
