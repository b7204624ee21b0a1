extension Select {
    /// Selects one expression per row.
    ///
    /// ```swift
    /// Note.all.select { $0.title }                  // Select<_, String>
    /// Note.all.select { $0.id.count() }             // Select<_, Int>
    /// ```
    ///
    /// Disfavored, so that on a select of values the `select` that adds to them is chosen
    /// (`Reminder.select(\.id).select(\.title)` reads both).
    @_disfavoredOverload
    public func select<E: QueryExpression>(
        _ selection: (Columns) -> E
    ) -> Select<Columns, E.QueryValue.QueryOutput> where E.QueryValue: QueryRepresentable {
        selectingOne(selection(columns))
    }

    /// Selects several expressions per row, as a tuple (as many as the query needs).
    ///
    /// ```swift
    /// Note.all.select { ($0.id, $0.title, $0.updatedAt) }      // Select<_, (UUID, String, Date)>
    /// ```
    @_disfavoredOverload
    public func select<each E: QueryExpression>(
        _ selection: (Columns) -> (repeat each E)
    ) -> Select<Columns, (repeat (each E).QueryValue.QueryOutput)> where repeat (each E).QueryValue: QueryRepresentable {
        selectingTuple(repeat each selection(columns))
    }

    /// The same clauses, reading one expression per row.
    func selectingOne<E: QueryExpression>(
        _ expression: E
    ) -> Select<Columns, E.QueryValue.QueryOutput> where E.QueryValue: QueryRepresentable {
        selecting([expression.selectionFragment]) { (decoder) throws(BoutiqueError) in
            try E.QueryValue.decode(from: &decoder)
        }
    }

    /// The same clauses, reading the expressions of a tuple per row, left to right.
    func selectingTuple<each E: QueryExpression>(
        _ expressions: repeat each E
    ) -> Select<Columns, (repeat (each E).QueryValue.QueryOutput)> where repeat (each E).QueryValue: QueryRepresentable {
        selecting(Self.selectionFragments(of: repeat each expressions), decoder: Self.tupleDecoder(repeat (each E).QueryValue.self))
    }

    /// Reads one column per representation, left to right, as a tuple.
    private static func tupleDecoder<each R: QueryRepresentable>(
        _ representations: repeat (each R).Type
    ) -> @Sendable (inout RowDecoder) throws(BoutiqueError) -> (repeat (each R).QueryOutput) {
        { (decoder) throws(BoutiqueError) in (repeat try decodeNext((each R).self, from: &decoder)) }
    }

    /// The next column, read with `representation`: one element of a selected tuple.
    private static func decodeNext<R: QueryRepresentable>(
        _ representation: R.Type, from decoder: inout RowDecoder
    ) throws(BoutiqueError) -> R.QueryOutput {
        try R.decode(from: &decoder)
    }

    /// The fragments of several expressions, in order.
    static func fragments<each E: QueryExpression>(of expressions: repeat each E) -> [QueryFragment] {
        var fragments: [QueryFragment] = []
        for expression in repeat each expressions { fragments.append(expression.queryFragment) }
        return fragments
    }

    /// What a `select` lists for several expressions, in order (a group of columns as its columns).
    static func selectionFragments<each E: QueryExpression>(of expressions: repeat each E) -> [QueryFragment] {
        var fragments: [QueryFragment] = []
        for expression in repeat each expressions { fragments.append(expression.selectionFragment) }
        return fragments
    }

    /// The `ORDER BY` terms of several orderings, in order.
    static func orderingFragments<each O: QueryOrdering>(of terms: repeat each O) -> [QueryFragment] {
        var fragments: [QueryFragment] = []
        for term in repeat each terms { fragments.append(term.orderingFragment) }
        return fragments
    }
}
