// The clauses of a select of one table. A join's select has a tuple of tables as its `Columns`, and
// its clauses take one closure parameter per table (Select+JoinedRows.swift): without the
// requirement, Swift would also pass a join's `{ reminder, list in … }` here as one tuple, and weigh
// both readings of every clause of a joined query (one of the reasons a join that chose a tuple took
// over 100 ms to type-check).
extension Select where Columns: TableDefinition {
    /// Keeps the rows for which `predicate` holds; several `where` calls are ANDed.
    ///
    /// ```swift
    /// Note.all.where { $0.isPinned }.where { $0.title.contains("milk") }
    /// ```
    public func `where`(_ predicate: (Columns) -> some QueryExpression<Bool>) -> Self {
        let condition = predicate(columns).queryFragment
        return with { $0.wheres.append(condition) }
    }

    /// Groups rows that share the value of `key` (for aggregates): `.group { $0.listID }`.
    public func group(by key: (Columns) -> some QueryExpression) -> Self {
        let fragment = key(columns).queryFragment
        return with { $0.groupBy.append(fragment) }
    }

    /// Groups rows that share the values of several keys: `.group { ($0.listID, $0.isDone) }`.
    public func group<each Key: QueryExpression>(by keys: (Columns) -> (repeat each Key)) -> Self {
        let fragments = Self.fragments(of: repeat each keys(columns))
        return with { $0.groupBy += fragments }
    }

    /// Keeps the groups for which `predicate` holds; several `having` calls are ANDed.
    public func having(_ predicate: (Columns) -> some QueryExpression<Bool>) -> Self {
        let condition = predicate(columns).queryFragment
        return with { $0.havings.append(condition) }
    }
}
