// Bit operations on integer expressions, as SQLite has them: `&`, `|`, `<<`, `>>` and `~`. The other
// side is any expression of the same type, a Swift integer included (it is bound): `$0.flags & 4`.

extension QueryExpression where QueryValue: BinaryInteger & QueryRepresentable {
    /// `(x & y)`: the bits set in both.
    @_disfavoredOverload
    public static func & (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, "&", rhs.queryFragment))
    }

    /// `(x | y)`: the bits set in either.
    @_disfavoredOverload
    public static func | (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, "|", rhs.queryFragment))
    }

    /// `(x << y)`: the bits moved `y` places up (down for a negative `y`).
    @_disfavoredOverload
    public static func << (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, "<<", rhs.queryFragment))
    }

    /// `(x >> y)`: the bits moved `y` places down, the sign kept (up for a negative `y`).
    @_disfavoredOverload
    public static func >> (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(lhs.queryFragment, ">>", rhs.queryFragment))
    }

    /// `(~x)`: every bit flipped.
    @_disfavoredOverload
    public static prefix func ~ (expression: Self) -> SQLExpression<QueryValue> {
        SQLExpression("(~" + expression.queryFragment + ")")
    }
}

// In an `update { }` closure an integer column is also `any QueryExpression`, the target of the
// compound assignments (Swift does not open an existential for an operator).

/// `x = (x & y)` for a column in an `update { }` closure: `$0.flags &= 6` clears the other bits.
@_disfavoredOverload
public func &= <Value: BinaryInteger & QueryRepresentable>(lhs: inout any QueryExpression<Value>, rhs: some QueryExpression<Value>) {
    lhs = SQLExpression<Value>(Operators.binary(lhs.queryFragment, "&", rhs.queryFragment))
}

/// `x = (x | y)` for a column in an `update { }` closure: `$0.flags |= 1` sets a bit.
@_disfavoredOverload
public func |= <Value: BinaryInteger & QueryRepresentable>(lhs: inout any QueryExpression<Value>, rhs: some QueryExpression<Value>) {
    lhs = SQLExpression<Value>(Operators.binary(lhs.queryFragment, "|", rhs.queryFragment))
}

/// `x = (x << y)` for a column in an `update { }` closure.
@_disfavoredOverload
public func <<= <Value: BinaryInteger & QueryRepresentable>(lhs: inout any QueryExpression<Value>, rhs: some QueryExpression<Value>) {
    lhs = SQLExpression<Value>(Operators.binary(lhs.queryFragment, "<<", rhs.queryFragment))
}

/// `x = (x >> y)` for a column in an `update { }` closure.
@_disfavoredOverload
public func >>= <Value: BinaryInteger & QueryRepresentable>(lhs: inout any QueryExpression<Value>, rhs: some QueryExpression<Value>) {
    lhs = SQLExpression<Value>(Operators.binary(lhs.queryFragment, ">>", rhs.queryFragment))
}
