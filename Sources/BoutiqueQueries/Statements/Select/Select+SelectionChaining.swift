// Selections that grow call by call and are then bundled, as StructuredQueries reads them:
//
//     Reminder.select(\.id).select(\.title)                // (Int, String)
//         .map { id, title in Summary.Columns(id: id, title: title) }
//
// A `select` on a select whose rows are already selected values (numbers, text, dates, optionals of
// them, or tuples of those) adds its columns to the tuple; on a select of table rows it chooses the
// columns, as before. `map` hands the selected expressions to a closure that builds one selection
// from them.

// The public overloads name the selected values one by one (a select of one value, of two, … of six):
// a requirement `Output == (repeat each O)` made every `select` on any select, table rows included,
// cost the type checker a pack to match, which took `Reminder.all.select { … }.fetchAll(db).map { … }`
// from 9 to 16 ms in a model of these overloads; a fixed arity is rejected at once. The work is done
// once, by `adding(_:)` and `addingTuple(_:)`, over a pack.

extension Select where Output: QueryBindable {
    /// Adds one expression to the selected value: a select of `Int` becomes one of `(Int, String)`.
    ///
    /// ```swift
    /// Reminder.select(\.id).select(\.title)     // SELECT "reminder"."id", "reminder"."title" …
    /// ```
    public func select<E: QueryExpression>(
        _ selection: (Columns) -> E
    ) -> Select<Columns, (Output, E.QueryValue.QueryOutput)> where E.QueryValue: QueryRepresentable {
        adding(selection(columns))
    }

    /// Adds several expressions to the selected value.
    public func select<each E: QueryExpression>(
        _ selection: (Columns) -> (repeat each E)
    ) -> Select<Columns, (Output, repeat (each E).QueryValue.QueryOutput)> where repeat (each E).QueryValue: QueryRepresentable {
        addingTuple(repeat each selection(columns))
    }
}

extension Select {
    /// Adds one expression to 2 selected values.
    public func select<O1: QueryBindable, O2: QueryBindable, E: QueryExpression>(
        _ selection: (Columns) -> E
    ) -> Select<Columns, (O1, O2, E.QueryValue.QueryOutput)> where Output == (O1, O2), E.QueryValue: QueryRepresentable {
        adding(selection(columns))
    }

    /// Adds several expressions to 2 selected values.
    public func select<O1: QueryBindable, O2: QueryBindable, each E: QueryExpression>(
        _ selection: (Columns) -> (repeat each E)
    ) -> Select<Columns, (O1, O2, repeat (each E).QueryValue.QueryOutput)>
    where Output == (O1, O2), repeat (each E).QueryValue: QueryRepresentable {
        addingTuple(repeat each selection(columns))
    }
}

extension Select {
    /// Adds one expression to 3 selected values.
    public func select<O1: QueryBindable, O2: QueryBindable, O3: QueryBindable, E: QueryExpression>(
        _ selection: (Columns) -> E
    ) -> Select<Columns, (O1, O2, O3, E.QueryValue.QueryOutput)> where Output == (O1, O2, O3), E.QueryValue: QueryRepresentable {
        adding(selection(columns))
    }

    /// Adds several expressions to 3 selected values.
    public func select<O1: QueryBindable, O2: QueryBindable, O3: QueryBindable, each E: QueryExpression>(
        _ selection: (Columns) -> (repeat each E)
    ) -> Select<Columns, (O1, O2, O3, repeat (each E).QueryValue.QueryOutput)>
    where Output == (O1, O2, O3), repeat (each E).QueryValue: QueryRepresentable {
        addingTuple(repeat each selection(columns))
    }
}

extension Select {
    /// Adds one expression to 4 selected values.
    public func select<O1: QueryBindable, O2: QueryBindable, O3: QueryBindable, O4: QueryBindable, E: QueryExpression>(
        _ selection: (Columns) -> E
    ) -> Select<Columns, (O1, O2, O3, O4, E.QueryValue.QueryOutput)> where Output == (O1, O2, O3, O4), E.QueryValue: QueryRepresentable {
        adding(selection(columns))
    }

    /// Adds several expressions to 4 selected values.
    public func select<O1: QueryBindable, O2: QueryBindable, O3: QueryBindable, O4: QueryBindable, each E: QueryExpression>(
        _ selection: (Columns) -> (repeat each E)
    ) -> Select<Columns, (O1, O2, O3, O4, repeat (each E).QueryValue.QueryOutput)>
    where Output == (O1, O2, O3, O4), repeat (each E).QueryValue: QueryRepresentable {
        addingTuple(repeat each selection(columns))
    }
}

extension Select {
    /// Adds one expression to 5 selected values.
    public func select<O1: QueryBindable, O2: QueryBindable, O3: QueryBindable, O4: QueryBindable, O5: QueryBindable, E: QueryExpression>(
        _ selection: (Columns) -> E
    ) -> Select<Columns, (O1, O2, O3, O4, O5, E.QueryValue.QueryOutput)> where Output == (O1, O2, O3, O4, O5), E.QueryValue: QueryRepresentable {
        adding(selection(columns))
    }

    /// Adds several expressions to 5 selected values.
    public func select<O1: QueryBindable, O2: QueryBindable, O3: QueryBindable, O4: QueryBindable, O5: QueryBindable, each E: QueryExpression>(
        _ selection: (Columns) -> (repeat each E)
    ) -> Select<Columns, (O1, O2, O3, O4, O5, repeat (each E).QueryValue.QueryOutput)>
    where Output == (O1, O2, O3, O4, O5), repeat (each E).QueryValue: QueryRepresentable {
        addingTuple(repeat each selection(columns))
    }
}

extension Select {
    /// Adds one expression to 6 selected values.
    public func select<O1: QueryBindable, O2: QueryBindable, O3: QueryBindable, O4: QueryBindable, O5: QueryBindable, O6: QueryBindable, E: QueryExpression>(
        _ selection: (Columns) -> E
    ) -> Select<Columns, (O1, O2, O3, O4, O5, O6, E.QueryValue.QueryOutput)> where Output == (O1, O2, O3, O4, O5, O6), E.QueryValue: QueryRepresentable {
        adding(selection(columns))
    }

    /// Adds several expressions to 6 selected values.
    public func select<O1: QueryBindable, O2: QueryBindable, O3: QueryBindable, O4: QueryBindable, O5: QueryBindable, O6: QueryBindable, each E: QueryExpression>(
        _ selection: (Columns) -> (repeat each E)
    ) -> Select<Columns, (O1, O2, O3, O4, O5, O6, repeat (each E).QueryValue.QueryOutput)>
    where Output == (O1, O2, O3, O4, O5, O6), repeat (each E).QueryValue: QueryRepresentable {
        addingTuple(repeat each selection(columns))
    }
}

extension Select {
    /// The selected values followed by `expression`'s.
    private func adding<each O, E: QueryExpression>(
        _ expression: E
    ) -> Select<Columns, (repeat each O, E.QueryValue.QueryOutput)> where Output == (repeat each O), E.QueryValue: QueryRepresentable {
        let previous = decoder
        return selecting(clauses.selectedTerms + [expression.selectionFragment]) { (decoder) throws(BoutiqueError) in
            let selected = try previous(&decoder)
            return (repeat each selected, try E.QueryValue.decode(from: &decoder))
        }
    }

    /// The selected values followed by the expressions'.
    private func addingTuple<each O, each E: QueryExpression>(
        _ expressions: repeat each E
    ) -> Select<Columns, (repeat each O, repeat (each E).QueryValue.QueryOutput)>
    where Output == (repeat each O), repeat (each E).QueryValue: QueryRepresentable {
        let added = Self.selectionFragments(of: repeat each expressions)
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
