/// Representations of numbers, for which arithmetic and `sum`/`avg` are defined.
public protocol QueryNumeric: QueryRepresentable {}

extension Int: QueryNumeric {}
extension Int64: QueryNumeric {}
extension Int32: QueryNumeric {}
extension Int16: QueryNumeric {}
extension Int8: QueryNumeric {}
extension UInt8: QueryNumeric {}
extension UInt16: QueryNumeric {}
extension UInt32: QueryNumeric {}
extension Double: QueryNumeric {}
extension Float: QueryNumeric {}
extension Optional: QueryNumeric where Wrapped: QueryNumeric {}

extension QueryExpression where QueryValue: QueryNumeric {
    /// `(x + y)`: the sum of two numeric expressions.
    @_disfavoredOverload
    public static func + (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, "+", rhs.queryFragment))
    }

    /// `(x - y)`: the difference of two numeric expressions.
    @_disfavoredOverload
    public static func - (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, "-", rhs.queryFragment))
    }

    /// `(x * y)`: the product of two numeric expressions.
    @_disfavoredOverload
    public static func * (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, "*", rhs.queryFragment))
    }

    /// `(x / y)`: the quotient (integer division for integers, NULL for a zero divisor).
    @_disfavoredOverload
    public static func / (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, "/", rhs.queryFragment))
    }

    /// `(x % y)`: the remainder (NULL for a zero divisor).
    @_disfavoredOverload
    public static func % (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, "%", rhs.queryFragment))
    }

    /// `(x + ?)`: the expression plus a bound value: `$0.views + 1`.
    public static func + (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, "+", QueryValue.bound(rhs)))
    }

    /// `(x - ?)`: the expression minus a bound value.
    public static func - (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, "-", QueryValue.bound(rhs)))
    }

    /// `(x * ?)`: the expression times a bound value.
    public static func * (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, "*", QueryValue.bound(rhs)))
    }

    /// `(x / ?)`: the expression divided by a bound value.
    public static func / (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, "/", QueryValue.bound(rhs)))
    }

    /// `(x % ?)`: the remainder of the expression divided by a bound value.
    public static func % (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, "%", QueryValue.bound(rhs)))
    }

    /// `(-x)`: the expression negated.
    @_disfavoredOverload
    public static prefix func - (expression: Self) -> SQLExpression<QueryValue> {
        SQLExpression("(-" + expression.queryFragment + ")")
    }

    /// `(+x)`: the expression unchanged in value (SQLite's unary plus).
    @_disfavoredOverload
    public static prefix func + (expression: Self) -> SQLExpression<QueryValue> {
        SQLExpression("(+" + expression.queryFragment + ")")
    }
}
