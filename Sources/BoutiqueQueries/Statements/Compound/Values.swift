/// One row of values, `SELECT ?, ?, …`, each value bound: a select without a table, for combining
/// with others (`Values(1, "a").union(Values(2, "b"))`) or seeding a recursive common table expression.
///
/// ```swift
/// try Values(1, "Hello", true).fetchOne(connection)      // (1, "Hello", true)
/// ```
public struct Values<Output>: PartialSelectStatement {
    public typealias Row = Output

    public let query: QueryFragment
    public let rowDecoder: @Sendable (inout RowDecoder) throws(BoutiqueError) -> Output

    /// A row of the given values, each stored with its type's own representation.
    public init<each V: QueryRepresentable>(_ values: repeat each V)
    where Output == (repeat (each V).QueryOutput), repeat (each V).QueryOutput == each V {
        var columns: [QueryFragment] = []
        for value in repeat each values { columns.append(QueryFragment(binding: type(of: value).encode(value))) }
        query = "SELECT " + columns.joined(separator: ", ")
        rowDecoder = { (decoder) throws(BoutiqueError) in (repeat try Self.decodeNext((each V).self, from: &decoder)) }
    }

    /// A row of expressions computed by SQLite, as a subquery's truth: `Values(Reminder.exists())`
    /// reads `SELECT (EXISTS (SELECT … FROM "reminder"))`, a `Bool`.
    @_disfavoredOverload
    public init<each E: QueryExpression>(_ expressions: repeat each E)
    where Output == (repeat (each E).QueryValue.QueryOutput), repeat (each E).QueryValue: QueryRepresentable {
        var columns: [QueryFragment] = []
        for expression in repeat each expressions { columns.append(expression.queryFragment) }
        query = "SELECT " + columns.joined(separator: ", ")
        rowDecoder = Self.decoder(repeat (each E).QueryValue.self)
    }

    /// A row of one call made for its effect, as a trigger's body makes it: `Values($logChange(new.id))`
    /// reads `SELECT "logChange"("new"."id")`, whose value (NULL, for a function returning nothing) is
    /// not read.
    public init(_ call: some QueryExpression<Void>) where Output == Void {
        query = "SELECT " + call.queryFragment
        rowDecoder = { _ in }
    }

    /// Reads one column per representation, left to right.
    private static func decoder<each R: QueryRepresentable>(
        _ representations: repeat (each R).Type
    ) -> @Sendable (inout RowDecoder) throws(BoutiqueError) -> (repeat (each R).QueryOutput) {
        { (decoder) throws(BoutiqueError) in (repeat try decodeNext((each R).self, from: &decoder)) }
    }

    public var rowSource: String { "VALUES" }

    public func decodeRow(_ decoder: inout RowDecoder) throws(BoutiqueError) -> Output {
        try rowDecoder(&decoder)
    }

    private static func decodeNext<R: QueryRepresentable>(
        _ representation: R.Type, from decoder: inout RowDecoder
    ) throws(BoutiqueError) -> R.QueryOutput {
        try R.decode(from: &decoder)
    }
}

/// A row of values holds only SQL, bindings and a decoder that captures nothing.
extension Values: Sendable {}
