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
    @_disfavoredOverload
    public static func + (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, "+", rhs.queryFragment))
    }

    @_disfavoredOverload

    public static func - (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, "-", rhs.queryFragment))
    }

    @_disfavoredOverload

    public static func * (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, "*", rhs.queryFragment))
    }

    @_disfavoredOverload

    public static func / (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, "/", rhs.queryFragment))
    }

    @_disfavoredOverload

    public static func % (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, "%", rhs.queryFragment))
    }

    @_disfavoredOverload

    public static func + (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, "+", QueryValue.bound(rhs)))
    }

    @_disfavoredOverload

    public static func - (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, "-", QueryValue.bound(rhs)))
    }

    @_disfavoredOverload

    public static func * (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, "*", QueryValue.bound(rhs)))
    }

    @_disfavoredOverload

    public static func / (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, "/", QueryValue.bound(rhs)))
    }

    @_disfavoredOverload

    public static func % (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, "%", QueryValue.bound(rhs)))
    }

    @_disfavoredOverload

    public static prefix func - (expression: Self) -> SQLExpression<QueryValue> {
        SQLExpression("(-" + expression.queryFragment + ")")
    }
}
