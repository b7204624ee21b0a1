extension Select {
    /// Keeps the rows for which `predicate` holds; several `where` calls are ANDed.
    ///
    /// ```swift
    /// Note.all.where { $0.isPinned }.where { $0.title.contains("milk") }
    /// ```
    public func `where`(_ predicate: (Columns) -> some QueryExpression<Bool>) -> Self {
        let condition = predicate(columns).queryFragment
        return with { $0.wheres.append(condition) }
    }

    /// Keeps the rows for which `predicate` holds over the joined tables.
    public func `where`<A, B>(_ predicate: (A, B) -> some QueryExpression<Bool>) -> Self where Columns == (A, B) {
        let condition = predicate(columns.0, columns.1).queryFragment
        return with { $0.wheres.append(condition) }
    }

    /// Keeps the rows for which `predicate` holds over the three joined tables.
    public func `where`<A, B, C>(_ predicate: (A, B, C) -> some QueryExpression<Bool>) -> Self
    where Columns == (A, B, C) {
        let condition = predicate(columns.0, columns.1, columns.2).queryFragment
        return with { $0.wheres.append(condition) }
    }

    /// Groups rows that share the value of `key` (for aggregates): `.group { $0.listID }`.
    public func group(by key: (Columns) -> some QueryExpression) -> Self {
        let fragment = key(columns).queryFragment
        return with { $0.groupBy.append(fragment) }
    }

    /// Groups rows that share the values of both keys.
    public func group<K1: QueryExpression, K2: QueryExpression>(by keys: (Columns) -> (K1, K2)) -> Self {
        let (first, second) = keys(columns)
        return with { $0.groupBy += [first.queryFragment, second.queryFragment] }
    }

    /// Groups joined rows by `key`.
    public func group<A, B>(by key: (A, B) -> some QueryExpression) -> Self where Columns == (A, B) {
        let fragment = key(columns.0, columns.1).queryFragment
        return with { $0.groupBy.append(fragment) }
    }

    /// Keeps the groups for which `predicate` holds; several `having` calls are ANDed.
    public func having(_ predicate: (Columns) -> some QueryExpression<Bool>) -> Self {
        let condition = predicate(columns).queryFragment
        return with { $0.havings.append(condition) }
    }

    /// Keeps the joined groups for which `predicate` holds.
    public func having<A, B>(_ predicate: (A, B) -> some QueryExpression<Bool>) -> Self where Columns == (A, B) {
        let condition = predicate(columns.0, columns.1).queryFragment
        return with { $0.havings.append(condition) }
    }
}
