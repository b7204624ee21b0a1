import BoutiqueSQLite

/// Fetching rows of several columns from SQL text, typed as a tuple, as the query builder's `select`
/// of a tuple is:
///
/// ```swift
/// let rows = try #sql("SELECT title, isDone FROM \(Reminder.self)", as: (String, Bool).self).fetchAll(connection)
/// // [(String, Bool)]
/// ```
///
/// Each element of the tuple reads the next column with its representation (`Date.UnixTimeRepresentation`,
/// an optional, …), from the first column on.
extension SQLQuery {
    /// Every row, each decoded as the tuple `Output`, a column per element.
    public func fetchAll<First: QueryRepresentable, Second: QueryRepresentable, each Rest: QueryRepresentable>(
        _ connection: Connection
    ) throws -> [(First.QueryOutput, Second.QueryOutput, repeat (each Rest).QueryOutput)] where Output == (First, Second, repeat each Rest) {
        try withStatement(connection) { statement throws(BoutiqueError) in
            var rows: [(First.QueryOutput, Second.QueryOutput, repeat (each Rest).QueryOutput)] = []
            while try Self.step(statement) {
                var decoder = RowDecoder(statement: statement, source: queryFragment.sql)
                rows.append(try Self.decodeTuple(First.self, Second.self, repeat (each Rest).self, from: &decoder))
            }
            return rows
        }
    }

    /// The first row as the tuple `Output`, or `nil` when there is none.
    public func fetchOne<First: QueryRepresentable, Second: QueryRepresentable, each Rest: QueryRepresentable>(
        _ connection: Connection
    ) throws -> (First.QueryOutput, Second.QueryOutput, repeat (each Rest).QueryOutput)? where Output == (First, Second, repeat each Rest) {
        try withStatement(connection) { statement throws(BoutiqueError) in
            guard try Self.step(statement) else { return nil }
            var decoder = RowDecoder(statement: statement, source: queryFragment.sql)
            let row: (First.QueryOutput, Second.QueryOutput, repeat (each Rest).QueryOutput)
            row = try Self.decodeTuple(First.self, Second.self, repeat (each Rest).self, from: &decoder)
            return .some(row)
        }
    }

    private static func decodeTuple<First: QueryRepresentable, Second: QueryRepresentable, each Rest: QueryRepresentable>(
        _ first: First.Type, _ second: Second.Type, _ rest: repeat (each Rest).Type, from decoder: inout RowDecoder
    ) throws(BoutiqueError) -> (First.QueryOutput, Second.QueryOutput, repeat (each Rest).QueryOutput) {
        (try First.decode(from: &decoder), try Second.decode(from: &decoder), repeat try (each Rest).decode(from: &decoder))
    }
}
