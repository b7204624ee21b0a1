// SQLite's `abs`, `sign` and `round` as methods of columns and computed expressions, with
// StructuredQueries' names and constraints (`abs` and `sign` on numbers and optional numbers, `round`
// on floating-point numbers).
//
// They are declared on the expression types, not on every expression: Swift values are expressions
// too, and a method `abs()` on `Int` would hide Swift's `abs(_:)` inside an app's own `extension Int`
// (unqualified lookup finds the member first and stops there), as `round()` would C's `round(_:)`.

extension TableColumn where Value: QueryNumeric {
    /// `abs(x)`: the magnitude of a numeric column (NULL stays NULL).
    public func abs() -> SQLExpression<Value> { SQLExpression(Operators.function("abs", [queryFragment])) }

    /// `sign(x)`: -1, 0 or 1 for a negative, zero or positive value (NULL stays NULL).
    public func sign() -> SQLExpression<Value> { SQLExpression(Operators.function("sign", [queryFragment])) }
}

extension SQLExpression where QueryValue: QueryNumeric {
    /// `abs(x)`: the magnitude of a numeric expression (NULL stays NULL).
    public func abs() -> SQLExpression<QueryValue> { SQLExpression(Operators.function("abs", [queryFragment])) }

    /// `sign(x)`: -1, 0 or 1 for a negative, zero or positive value (NULL stays NULL).
    public func sign() -> SQLExpression<QueryValue> { SQLExpression(Operators.function("sign", [queryFragment])) }
}

extension TableColumn where Value: QueryNumeric & FloatingPoint {
    /// `round(x)`: the column rounded to a whole number, half away from zero: `$0.price.round()`.
    public func round() -> SQLExpression<Value> { SQLExpression(Operators.function("round", [queryFragment])) }

    /// `round(x, digits)`: rounded to `digits` places after the decimal point: `$0.price.round(2)`.
    public func round(_ digits: some QueryExpression<Int>) -> SQLExpression<Value> {
        SQLExpression(Operators.function("round", [queryFragment, digits.queryFragment]))
    }
}

extension SQLExpression where QueryValue: QueryNumeric & FloatingPoint {
    /// `round(x)`: rounded to a whole number, half away from zero.
    public func round() -> SQLExpression<QueryValue> { SQLExpression(Operators.function("round", [queryFragment])) }

    /// `round(x, digits)`: rounded to `digits` places after the decimal point.
    public func round(_ digits: some QueryExpression<Int>) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.function("round", [queryFragment, digits.queryFragment]))
    }
}
