extension Select {
    /// Selects one expression per row.
    ///
    /// ```swift
    /// Note.all.select { $0.title }                  // Select<_, String>
    /// Note.all.select { $0.id.count() }             // Select<_, Int>
    /// ```
    public func select<E: QueryExpression>(
        _ selection: (Columns) -> E
    ) -> Select<Columns, E.QueryValue.QueryOutput> where E.QueryValue: QueryRepresentable {
        let expression = selection(columns)
        return selecting(expression.queryFragment) { (decoder) throws(BoutiqueError) in
            try E.QueryValue.decode(from: &decoder)
        }
    }

    /// Selects two expressions per row, as a tuple.
    public func select<E1: QueryExpression, E2: QueryExpression>(
        _ selection: (Columns) -> (E1, E2)
    ) -> Select<Columns, (E1.QueryValue.QueryOutput, E2.QueryValue.QueryOutput)>
    where E1.QueryValue: QueryRepresentable, E2.QueryValue: QueryRepresentable {
        let (first, second) = selection(columns)
        return selecting([first.queryFragment, second.queryFragment].joined(separator: ", ")) {
            (decoder) throws(BoutiqueError) in
            (try E1.QueryValue.decode(from: &decoder), try E2.QueryValue.decode(from: &decoder))
        }
    }

    /// Selects three expressions per row, as a tuple.
    public func select<E1: QueryExpression, E2: QueryExpression, E3: QueryExpression>(
        _ selection: (Columns) -> (E1, E2, E3)
    ) -> Select<Columns, (E1.QueryValue.QueryOutput, E2.QueryValue.QueryOutput, E3.QueryValue.QueryOutput)>
    where E1.QueryValue: QueryRepresentable, E2.QueryValue: QueryRepresentable, E3.QueryValue: QueryRepresentable {
        let (first, second, third) = selection(columns)
        return selecting([first.queryFragment, second.queryFragment, third.queryFragment].joined(separator: ", ")) {
            (decoder) throws(BoutiqueError) in
            (
                try E1.QueryValue.decode(from: &decoder), try E2.QueryValue.decode(from: &decoder),
                try E3.QueryValue.decode(from: &decoder)
            )
        }
    }

    /// Selects one expression per joined row.
    public func select<A, B, E: QueryExpression>(
        _ selection: (A, B) -> E
    ) -> Select<Columns, E.QueryValue.QueryOutput> where Columns == (A, B), E.QueryValue: QueryRepresentable {
        let expression = selection(columns.0, columns.1)
        return selecting(expression.queryFragment) { (decoder) throws(BoutiqueError) in
            try E.QueryValue.decode(from: &decoder)
        }
    }

    /// Selects two expressions per joined row, as a tuple.
    public func select<A, B, E1: QueryExpression, E2: QueryExpression>(
        _ selection: (A, B) -> (E1, E2)
    ) -> Select<Columns, (E1.QueryValue.QueryOutput, E2.QueryValue.QueryOutput)>
    where Columns == (A, B), E1.QueryValue: QueryRepresentable, E2.QueryValue: QueryRepresentable {
        let (first, second) = selection(columns.0, columns.1)
        return selecting([first.queryFragment, second.queryFragment].joined(separator: ", ")) {
            (decoder) throws(BoutiqueError) in
            (try E1.QueryValue.decode(from: &decoder), try E2.QueryValue.decode(from: &decoder))
        }
    }

    /// Selects three expressions per joined row, as a tuple.
    public func select<A, B, E1: QueryExpression, E2: QueryExpression, E3: QueryExpression>(
        _ selection: (A, B) -> (E1, E2, E3)
    ) -> Select<Columns, (E1.QueryValue.QueryOutput, E2.QueryValue.QueryOutput, E3.QueryValue.QueryOutput)>
    where
        Columns == (A, B), E1.QueryValue: QueryRepresentable, E2.QueryValue: QueryRepresentable,
        E3.QueryValue: QueryRepresentable
    {
        let (first, second, third) = selection(columns.0, columns.1)
        return selecting([first.queryFragment, second.queryFragment, third.queryFragment].joined(separator: ", ")) {
            (decoder) throws(BoutiqueError) in
            (
                try E1.QueryValue.decode(from: &decoder), try E2.QueryValue.decode(from: &decoder),
                try E3.QueryValue.decode(from: &decoder)
            )
        }
    }
}
