// A select of one table; a join's orderings take one closure parameter per table (see
// Select+Filtering.swift for why the requirement is there).
extension Select where Columns: TableDefinition {
    /// Orders the rows; later `order` calls add tie-breakers.
    ///
    /// ```swift
    /// Note.all.order { $0.updatedAt.desc() }
    /// Note.all.order { ($0.isPinned.desc(), $0.title, $0.updatedAt.desc()) }    // several keys
    /// ```
    public func order(_ ordering: (Columns) -> some QueryOrdering) -> Self {
        let term = ordering(columns).orderingFragment
        return with { $0.orderBy.append(term) }
    }

    /// Orders by several keys, the first one first.
    public func order<each Term: QueryOrdering>(_ ordering: (Columns) -> (repeat each Term)) -> Self {
        let terms = Self.orderingFragments(of: repeat each ordering(columns))
        return with { $0.orderBy += terms }
    }
}
