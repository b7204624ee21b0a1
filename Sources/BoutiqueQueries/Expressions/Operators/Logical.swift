// `&&`, `||` and `!` on boolean expressions render `AND`, `OR` and `NOT`.

extension QueryExpression where QueryValue == Bool {
    public static func && (lhs: Self, rhs: some QueryExpression<Bool>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(lhs.queryFragment, "AND", rhs.queryFragment))
    }

    public static func || (lhs: Self, rhs: some QueryExpression<Bool>) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(lhs.queryFragment, "OR", rhs.queryFragment))
    }

    public static prefix func ! (expression: Self) -> SQLExpression<Bool> {
        SQLExpression("(NOT " + expression.queryFragment + ")")
    }

    public static func && (lhs: Self, rhs: Bool) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(lhs.queryFragment, "AND", Bool.bound(rhs)))
    }

    public static func || (lhs: Self, rhs: Bool) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(lhs.queryFragment, "OR", Bool.bound(rhs)))
    }
}
