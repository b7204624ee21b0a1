/// Representations of text, for which the string functions are defined.
public protocol QueryText: QueryRepresentable {
    /// The representation of the text's length: `Int`, or `Int?` for optional text (NULL has no length).
    associatedtype Length: QueryRepresentable = Int
}
extension String: QueryText {}
extension Optional: QueryText where Wrapped: QueryText {
    public typealias Length = Int?
}

extension QueryExpression where QueryValue: QueryText {
    /// `lower(x)`: ASCII letters in lower case.
    public func lower() -> SQLExpression<QueryValue> { SQLExpression(Operators.function("lower", [queryFragment])) }

    /// `upper(x)`: ASCII letters in upper case.
    public func upper() -> SQLExpression<QueryValue> { SQLExpression(Operators.function("upper", [queryFragment])) }

    /// `length(x)`: the number of characters; `nil` for an optional column's NULL.
    public func length() -> SQLExpression<QueryValue.Length> { SQLExpression(Operators.function("length", [queryFragment])) }

    /// `true` for the empty string: `(x = '')`. NULL is not empty (nor not empty: the test is NULL).
    public var isEmpty: SQLExpression<Bool> {
        SQLExpression(Operators.binary(queryFragment, "=", QueryFragment("''")))
    }

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

    // contains/hasPrefix/hasSuffix are LIKE patterns, as in StructuredQueries: SQLite's LIKE ignores
    // the case of ASCII letters, and `%` or `_` in the argument match as wildcards. `instr(_:)` and
    // `glob(_:)` compare exactly.

    /// `x LIKE '%' || substring || '%'`: `substring` anywhere in `x` (ASCII case ignored).
    @_disfavoredOverload
    public func contains(_ substring: String) -> SQLExpression<Bool> {
        like("%" + substring + "%")
    }

    /// `x LIKE prefix || '%'`: `x` starts with `prefix` (ASCII case ignored).
    public func hasPrefix(_ prefix: String) -> SQLExpression<Bool> {
        like(prefix + "%")
    }

    /// `x LIKE '%' || suffix`: `x` ends with `suffix` (ASCII case ignored).
    public func hasSuffix(_ suffix: String) -> SQLExpression<Bool> {
        like("%" + suffix)
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

// `+` on text, as Swift joins strings; disfavored, so that Swift's own `+` on two `String` values
// is chosen first in an app's code.
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
