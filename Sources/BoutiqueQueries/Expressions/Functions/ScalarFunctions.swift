import BoutiqueSQLite
import Foundation

// SQLite's core scalar functions, spelled as methods on the expression they take first (the names
// StructuredQueries uses). Every argument that is a Swift value is bound; none is spliced into SQL.

// MARK: Strings

extension QueryExpression where QueryValue: QueryText {
    /// `instr(x, y)`: the character position (from 1) of the first `y` in `x`, `0` when there is none.
    public func instr(_ occurrence: some QueryExpression<String>) -> SQLExpression<QueryValue.Length> {
        SQLExpression(Operators.function("instr", [queryFragment, occurrence.queryFragment]))
    }

    /// `trim(x, characters)`: `x` without any of `characters` at either end.
    public func trim(_ characters: some QueryExpression<String>) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.function("trim", [queryFragment, characters.queryFragment]))
    }

    /// `ltrim(x)`: `x` without spaces at its start.
    public func ltrim() -> SQLExpression<QueryValue> { SQLExpression(Operators.function("ltrim", [queryFragment])) }

    /// `ltrim(x, characters)`: `x` without any of `characters` at its start.
    public func ltrim(_ characters: some QueryExpression<String>) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.function("ltrim", [queryFragment, characters.queryFragment]))
    }

    /// `rtrim(x)`: `x` without spaces at its end.
    public func rtrim() -> SQLExpression<QueryValue> { SQLExpression(Operators.function("rtrim", [queryFragment])) }

    /// `rtrim(x, characters)`: `x` without any of `characters` at its end.
    public func rtrim(_ characters: some QueryExpression<String>) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.function("rtrim", [queryFragment, characters.queryFragment]))
    }

    /// `replace(x, y, z)`: `x` with every `y` replaced by `z` (case-sensitive; an empty `y` replaces
    /// nothing).
    public func replace(
        _ other: some QueryExpression<String>, _ replacement: some QueryExpression<String>
    ) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.function("replace", [queryFragment, other.queryFragment, replacement.queryFragment]))
    }

    /// `substr(x, offset)`: the characters of `x` from `offset` (the first is 1; a negative offset
    /// counts from the end).
    public func substr(_ offset: some QueryExpression<Int>) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.function("substr", [queryFragment, offset.queryFragment]))
    }

    /// `substr(x, offset, length)`: `length` characters of `x` from `offset`.
    public func substr(_ offset: some QueryExpression<Int>, _ length: some QueryExpression<Int>) -> SQLExpression<QueryValue> {
        SQLExpression(Operators.function("substr", [queryFragment, offset.queryFragment, length.queryFragment]))
    }

    /// The number of bytes of `x`'s UTF-8: `length(CAST(x AS BLOB))`; `nil` for an optional column's NULL.
    ///
    /// SQLite spells this `octet_length(x)` from version 3.43; the cast gives the same count on every
    /// version, the system's older SQLite included.
    public func octetLength() -> SQLExpression<QueryValue.Length> {
        SQLExpression(Operators.function("length", ["CAST(" + queryFragment + " AS BLOB)"]))
    }

    /// `unicode(x)`: the code point of the text's first character; NULL for the empty text and for
    /// NULL.
    public func unicode() -> SQLExpression<Int?> { SQLExpression(Operators.function("unicode", [queryFragment])) }
}

extension QueryExpression where QueryValue: QueryRepresentable {
    /// `quote(x)`: `x` as an SQL literal, as text: `'it''s'` for `it's`, `X'0102'` for bytes, `NULL`
    /// for NULL. For showing a value, never for building SQL: BoutiqueDB binds every value.
    public func quote() -> SQLExpression<String> { SQLExpression(Operators.function("quote", [queryFragment])) }

    /// `hex(x)`: the bytes of `x` in upper-case hexadecimal (a text's UTF-8, a number's text); the
    /// empty string for NULL.
    public func hex() -> SQLExpression<String> { SQLExpression(Operators.function("hex", [queryFragment])) }
}

// MARK: Blobs

extension QueryExpression where QueryValue: BinaryInteger {
    /// `randomblob(n)`: `n` random bytes (one byte when `n` is less than 1), from SQLite's
    /// pseudo-random generator: `Asset.insert { $0.bytes } values: { 16.randomblob() }`.
    ///
    /// SQLite's generator is not meant for secrets; use the system's (`SecRandomCopyBytes`,
    /// `/dev/urandom`) for keys and tokens.
    public func randomblob() -> SQLExpression<[UInt8]> { SQLExpression(Operators.function("randomblob", [queryFragment])) }

    /// `zeroblob(n)`: `n` zero bytes (none when `n` is less than 1), written without building them
    /// in memory first: `Asset.insert { $0.bytes } values: { 1_024.zeroblob() }`.
    public func zeroblob() -> SQLExpression<[UInt8]> { SQLExpression(Operators.function("zeroblob", [queryFragment])) }
}

// A blob's `length` counts its bytes. These are overloads for the two byte types rather than a
// protocol beside `QueryText`, whose optional conformance already names the length's type.
extension QueryExpression where QueryValue == [UInt8] {
    /// `length(x)`: the number of bytes.
    public func length() -> SQLExpression<Int> { SQLExpression(Operators.function("length", [queryFragment])) }
}

extension QueryExpression where QueryValue == [UInt8]? {
    /// `length(x)`: the number of bytes; `nil` for NULL.
    public func length() -> SQLExpression<Int?> { SQLExpression(Operators.function("length", [queryFragment])) }
}

extension QueryExpression where QueryValue == Data {
    /// `length(x)`: the number of bytes.
    public func length() -> SQLExpression<Int> { SQLExpression(Operators.function("length", [queryFragment])) }
}

extension QueryExpression where QueryValue == Data? {
    /// `length(x)`: the number of bytes; `nil` for NULL.
    public func length() -> SQLExpression<Int?> { SQLExpression(Operators.function("length", [queryFragment])) }
}

// MARK: Query planner hints

// SQLite reads these when it plans a query and returns the condition unchanged: they change how fast
// a query runs, never its rows.
extension QueryExpression where QueryValue == Bool {
    /// `likelihood(x, p)`: tells the query planner that the condition holds for a fraction `p` of the
    /// rows (from 0 to 1): `($0.priority == 3).likelihood(0.75)`.
    ///
    /// SQLite takes the fraction only as a number written in the statement, so it is written in as
    /// a literal instead of being bound. One outside 0...1 (or not finite) fails the statement when it
    /// is prepared, with SQLite's message ("second argument to likelihood() must be a constant between
    /// 0.0 and 1.0").
    public func likelihood(_ probability: some BinaryFloatingPoint) -> SQLExpression<Bool> {
        SQLExpression(Operators.function("likelihood", [queryFragment, QueryFragment(Self.probabilityLiteral(Double(probability)))]))
    }

    /// `likely(x)`: tells the query planner that the condition is usually true (`likelihood(x, 0.9375)`).
    public func likely() -> SQLExpression<Bool> { SQLExpression(Operators.function("likely", [queryFragment])) }

    /// `unlikely(x)`: tells the query planner that the condition is usually false (`likelihood(x, 0.0625)`).
    public func unlikely() -> SQLExpression<Bool> { SQLExpression(Operators.function("unlikely", [queryFragment])) }

    /// A fraction as an SQL floating-point literal: `0.75`, `1.0`, `1e-05`. A value that is not finite
    /// is written as `-1.0`, which SQLite refuses as it refuses any fraction outside 0...1, instead of
    /// `nan` or `inf`, which it would read as column names.
    static func probabilityLiteral(_ probability: Double) -> String {
        guard probability.isFinite else { return "-1.0" }
        // `-0.0` would read as a minus applied to a number, which SQLite does not take as a constant.
        if probability == 0 { return "0.0" }
        let text = String(probability)
        return text.contains(where: { $0 == "." || $0 == "e" }) ? text : text + ".0"
    }
}

// SQLite's `abs` and `round` are not methods here: a method of either name on every numeric value
// (which is an expression too) hides Swift's `abs(_:)` and C's `round(_:)` inside every extension of
// `Int`, `Double` or `Date` in the app ("use of 'abs' refers to instance method rather than global
// function"), and a `round()` method makes `x.round()` on a `Double` variable ambiguous. Write them
// with `#sql`.

// MARK: NULL

extension QueryExpression where QueryValue: QueryRepresentable {
    /// `nullif(x, y)`: NULL when `x` equals `y`, otherwise `x`: `$0.title.nullif("")` reads an empty
    /// title as none.
    @_disfavoredOverload
    public func nullif(_ other: some QueryExpression<QueryValue>) -> SQLExpression<QueryValue.Optionalized> {
        SQLExpression(Operators.function("nullif", [queryFragment, other.queryFragment]))
    }
}

// An optional column's `nullif` is just as optional (`String?`, not `String??`), and `ifnull` of an
// optional column with a value that is not optional reads as the value's type.
extension QueryExpression {
    /// `nullif(x, y)` of an optional column: NULL when `x` is NULL or equals `y`.
    public func nullif<Wrapped: QueryRepresentable>(_ other: some QueryExpression<Wrapped>) -> SQLExpression<Wrapped?>
    where QueryValue == Wrapped? {
        SQLExpression(Operators.function("nullif", [queryFragment, other.queryFragment]))
    }

    /// `nullif(x, y)` of two optional expressions: NULL when `x` is NULL or equals `y`.
    public func nullif<Wrapped: QueryRepresentable>(_ other: some QueryExpression<Wrapped?>) -> SQLExpression<Wrapped?>
    where QueryValue == Wrapped? {
        SQLExpression(Operators.function("nullif", [queryFragment, other.queryFragment]))
    }

    /// `ifnull(x, y)`: `x` unless it is NULL, then `y` (`coalesce` of two).
    public func ifnull<Wrapped: QueryRepresentable>(_ other: some QueryExpression<Wrapped>) -> SQLExpression<Wrapped>
    where QueryValue == Wrapped? {
        SQLExpression(Operators.function("ifnull", [queryFragment, other.queryFragment]))
    }

    /// `ifnull(x, y)` with an optional fallback: NULL when both are.
    @_disfavoredOverload
    public func ifnull<Wrapped: QueryRepresentable>(_ other: some QueryExpression<Wrapped?>) -> SQLExpression<Wrapped?>
    where QueryValue == Wrapped? {
        SQLExpression(Operators.function("ifnull", [queryFragment, other.queryFragment]))
    }
}
