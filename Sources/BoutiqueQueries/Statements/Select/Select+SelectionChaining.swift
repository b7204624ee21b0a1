// Selections that grow call by call and are then bundled, as StructuredQueries reads them:
//
//     Reminder.select(\.id).select(\.title)                // (Int, String)
//         .map { id, title in Summary.Columns(id: id, title: title) }
//
// A `select` on a select whose rows are already selected values (numbers, text, dates, optionals of
// them, or tuples of those) adds its columns to the tuple; on a select of table rows it chooses the
// columns, as before. `map` hands the selected expressions to a closure that builds one selection
// from them.

extension Select {
    /// Adds one expression to the selected columns: a select of `Int` becomes one of `(Int, String)`.
    ///
    /// ```swift
    /// Reminder.select(\.id).select(\.title)     // SELECT "reminder"."id", "reminder"."title" …
    /// ```
    public func select<each O: QueryBindable, E: QueryExpression>(
        _ selection: (Columns) -> E
    ) -> Select<Columns, (repeat each O, E.QueryValue.QueryOutput)>
    where Output == (repeat each O), E.QueryValue: QueryRepresentable {
        let expression = selection(columns)
        let previous = decoder
        return selecting(clauses.selectedTerms + [expression.queryFragment]) { (decoder) throws(BoutiqueError) in
            let selected = try previous(&decoder)
            return (repeat each selected, try E.QueryValue.decode(from: &decoder))
        }
    }

    /// Adds several expressions to the selected columns.
    public func select<each O: QueryBindable, each E: QueryExpression>(
        _ selection: (Columns) -> (repeat each E)
    ) -> Select<Columns, (repeat each O, repeat (each E).QueryValue.QueryOutput)>
    where Output == (repeat each O), repeat (each E).QueryValue: QueryRepresentable {
        let added = Self.fragments(of: repeat each selection(columns))
        return selecting(
            clauses.selectedTerms + added,
            decoder: Self.appending(decoder, Self.addedDecoder(repeat (each E).QueryValue.self)))
    }

    /// Builds one selection from the selected expressions, in order: a `@Selection` type's `Columns`,
    /// or any expression of them.
    ///
    /// ```swift
    /// Reminder.select(\.id).select(\.title).map { _, title in title.upper() }   // [String]
    /// ```
    public func map<each O: QueryBindable, R: QueryExpression>(
        _ transform: (repeat SQLExpression<each O>) -> R
    ) -> Select<Columns, R.QueryValue.QueryOutput> where Output == (repeat each O), R.QueryValue: QueryRepresentable {
        let terms = clauses.selectedTerms
        var position = 0
        // Each selected value type was recorded with its expression by `select`, so there is one term
        // per element; NULL stands in only if a select built elsewhere did not record them.
        func nextTerm<Value>(_ type: Value.Type) -> SQLExpression<Value> {
            defer { position += 1 }
            return SQLExpression(position < terms.count ? terms[position] : QueryFragment("NULL"))
        }
        return selectingOne(transform(repeat nextTerm((each O).self)))
    }

    /// Reads the columns selected before, then the added ones, as one tuple.
    private static func appending<each Before, each Added>(
        _ before: @escaping @Sendable (inout RowDecoder) throws(BoutiqueError) -> (repeat each Before),
        _ added: @escaping @Sendable (inout RowDecoder) throws(BoutiqueError) -> (repeat each Added)
    ) -> @Sendable (inout RowDecoder) throws(BoutiqueError) -> (repeat each Before, repeat each Added) {
        { (decoder) throws(BoutiqueError) in
            let selected = try before(&decoder)
            let more = try added(&decoder)
            return (repeat each selected, repeat each more)
        }
    }

    /// Reads the added columns, left to right.
    private static func addedDecoder<each R: QueryRepresentable>(
        _ representations: repeat (each R).Type
    ) -> @Sendable (inout RowDecoder) throws(BoutiqueError) -> (repeat (each R).QueryOutput) {
        { (decoder) throws(BoutiqueError) in (repeat try (each R).decode(from: &decoder)) }
    }
}
