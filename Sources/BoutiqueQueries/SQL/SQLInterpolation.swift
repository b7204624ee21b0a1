import BoutiqueSQLite

/// How `#sql` and ``SQLQuery`` literals are put together: literal text stays SQL, and every interpolated
/// value becomes a bound parameter.
///
/// ```swift
/// let title = "') OR 1=1 --"
/// let query: SQLQuery<Void> = "DELETE FROM \(Note.self) WHERE \(Note.columns.title) = \(title)"
/// // DELETE FROM "note" WHERE "note"."title" = ?   — the title is a value, never SQL
/// ```
public struct SQLInterpolation: StringInterpolationProtocol, Sendable {
    /// The SQL and bindings so far.
    public var fragment: QueryFragment

    public init(literalCapacity: Int, interpolationCount: Int) {
        fragment = QueryFragment()
        fragment.sql.reserveCapacity(literalCapacity + interpolationCount)
    }

    /// Literal text of the string: SQL as written.
    public mutating func appendLiteral(_ literal: String) {
        fragment.sql += literal
    }

    /// An expression's SQL: a value is a bound `?` (`\(title)`), a column its qualified quoted name
    /// (`\(Note.columns.title)`), a `TableColumns` value every column, a query its text and bindings.
    public mutating func appendInterpolation(_ expression: some QueryExpression) {
        fragment.append(expression.queryFragment)
    }

    /// A value bound as a parameter, said so at the call: `\(bind: searchText)` is `?` bound to the
    /// text, as `\(searchText)` is (StructuredQueries' spelling for making the binding explicit).
    public mutating func appendInterpolation(bind value: some QueryBindable) {
        fragment.append(value.queryFragment)
    }

    /// A table's quoted name: `\(Note.self)` → `"note"`.
    public mutating func appendInterpolation<T: Table>(_ table: T.Type) {
        fragment.sql += T.quotedTableName
    }

    /// A fragment's SQL and bindings, as they are.
    public mutating func appendInterpolation(_ fragment: QueryFragment) {
        self.fragment.append(fragment)
    }

    /// Text inserted verbatim as SQL: `\(raw: "ORDER BY title")`.
    ///
    /// Only for text the program controls: anything in it is SQL, not a value.
    public mutating func appendInterpolation(raw sql: String) {
        fragment.sql += sql
    }

    /// A quoted identifier: `\(identifier: "my table")` → `"my table"`.
    public mutating func appendInterpolation(identifier name: String) {
        fragment.sql += SQLIdentifier.quote(name)
    }
}
