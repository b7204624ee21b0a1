/// Representations of text, for which the string functions are defined.
public protocol QueryText: QueryRepresentable {}
extension String: QueryText {}
extension Optional: QueryText where Wrapped: QueryText {}

extension QueryExpression where QueryValue: QueryText {
    /// `lower(x)`: ASCII letters in lower case.
    public func lower() -> SQLExpression<QueryValue> { SQLExpression(Operators.function("lower", [queryFragment])) }

    /// `upper(x)`: ASCII letters in upper case.
    public func upper() -> SQLExpression<QueryValue> { SQLExpression(Operators.function("upper", [queryFragment])) }

    /// `length(x)`: the number of characters.
    public func length() -> SQLExpression<Int> { SQLExpression(Operators.function("length", [queryFragment])) }

    /// `trim(x)`.
    public func trim() -> SQLExpression<QueryValue> { SQLExpression(Operators.function("trim", [queryFragment])) }

    /// `x LIKE pattern ESCAPE …` — SQLite's `LIKE`: `%` and `_` wildcards, ASCII case-insensitive.
    public func like(_ pattern: String, escape: Character? = nil) -> SQLExpression<Bool> {
        var fragment = "(" + queryFragment + " LIKE " + String.bound(pattern)
        if let escape { fragment = fragment + " ESCAPE " + String.bound(String(escape)) }
        return SQLExpression(fragment + ")")
    }

    /// `x GLOB pattern` — `*`, `?` and `[…]` wildcards, case-sensitive.
    public func glob(_ pattern: String) -> SQLExpression<Bool> {
        SQLExpression(Operators.binary(queryFragment, "GLOB", String.bound(pattern)))
    }

    /// `true` when `x` contains `substring` exactly (case-sensitive, no wildcards): `instr(x, ?) > 0`.
    public func contains(_ substring: String) -> SQLExpression<Bool> {
        SQLExpression("(instr(" + queryFragment + ", " + String.bound(substring) + ") > 0)")
    }

    /// `true` when `x` starts with `prefix` exactly: `substr(x, 1, length(?)) = ?`.
    public func hasPrefix(_ prefix: String) -> SQLExpression<Bool> {
        SQLExpression(
            "(substr(" + queryFragment + ", 1, length(" + String.bound(prefix) + ")) = " + String.bound(prefix) + ")")
    }

    /// `true` when `x` ends with `suffix` exactly.
    public func hasSuffix(_ suffix: String) -> SQLExpression<Bool> {
        // substr(x, -0) is the whole string, so the empty suffix needs its own case.
        SQLExpression(
            "(" + String.bound(suffix) + " = '' OR substr(" + queryFragment + ", -length(" + String.bound(suffix)
                + ")) = " + String.bound(suffix) + ")")
    }

    /// `x || y`: the two strings joined (SQL's `||` operator; Swift's `||` means OR).
    public func concat(_ other: some QueryExpression<QueryValue>) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(queryFragment, "||", other.queryFragment))
    }

    /// `x || ?`.
    public func concat(_ other: String) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.binary(queryFragment, "||", String.bound(other)))
    }
}
