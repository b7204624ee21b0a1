import BoutiqueSQLite

/// SQL written as text, with its values bound: what `#sql` makes.
///
/// ```swift
/// let query = #sql("SELECT count(*) FROM \(Note.self) WHERE \(Note.columns.isPinned) = \(true)", as: Int.self)
/// query.sql        // SELECT count(*) FROM "note" WHERE "note"."isPinned" = ?
/// query.bindings   // [.integer(1)]
/// let count = try query.fetchOne(connection)
/// ```
///
/// It is an expression whose value has the representation `Output`, so it can stand inside the query
/// builder's closures: `Note.where { #sql("\($0.title) GLOB 'a*'", as: Bool.self) }`.
public struct SQLQuery<Output>: QueryExpression, Sendable {
    public typealias QueryValue = Output

    /// The SQL and its bound values.
    public var queryFragment: QueryFragment

    /// A query from a fragment.
    @inlinable
    public init(_ fragment: QueryFragment) { queryFragment = fragment }

    /// `query`, typed by `output`: the form `#sql(…, as:)` expands to.
    @inlinable
    public init(_ query: SQLQuery<Output>, as output: Output.Type) { self = query }

    /// The SQL text, with a `?` for each bound value.
    @inlinable
    public var sql: String { queryFragment.sql }

    /// The bound values, in placeholder order.
    @inlinable
    public var bindings: [DatabaseValue] { queryFragment.bindings }
}

extension SQLQuery: ExpressibleByStringInterpolation {
    public typealias StringInterpolation = SQLInterpolation

    /// Text with nothing interpolated: used as written.
    @inlinable
    public init(stringLiteral value: String) { queryFragment = QueryFragment(value) }

    @inlinable
    public init(stringInterpolation: SQLInterpolation) { queryFragment = stringInterpolation.fragment }
}
