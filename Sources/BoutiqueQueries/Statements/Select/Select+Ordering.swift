extension Select {
    /// Orders the rows; later `order` calls add tie-breakers.
    ///
    /// ```swift
    /// Note.all.order { $0.updatedAt.desc() }
    /// Note.all.order { ($0.isPinned.desc(), $0.title) }
    /// ```
    public func order(_ ordering: (Columns) -> some QueryOrdering) -> Self {
        let term = ordering(columns).orderingFragment
        return with { $0.orderBy.append(term) }
    }

    /// Orders by two keys.
    public func order<O1: QueryOrdering, O2: QueryOrdering>(_ ordering: (Columns) -> (O1, O2)) -> Self {
        let (first, second) = ordering(columns)
        return with { $0.orderBy += [first.orderingFragment, second.orderingFragment] }
    }

    /// Orders by three keys.
    public func order<O1: QueryOrdering, O2: QueryOrdering, O3: QueryOrdering>(
        _ ordering: (Columns) -> (O1, O2, O3)
    ) -> Self {
        let (first, second, third) = ordering(columns)
        return with { $0.orderBy += [first.orderingFragment, second.orderingFragment, third.orderingFragment] }
    }

    /// Orders joined rows.
    public func order<A, B>(_ ordering: (A, B) -> some QueryOrdering) -> Self where Columns == (A, B) {
        let term = ordering(columns.0, columns.1).orderingFragment
        return with { $0.orderBy.append(term) }
    }

    /// Orders joined rows by two keys.
    public func order<A, B, O1: QueryOrdering, O2: QueryOrdering>(_ ordering: (A, B) -> (O1, O2)) -> Self
    where Columns == (A, B) {
        let (first, second) = ordering(columns.0, columns.1)
        return with { $0.orderBy += [first.orderingFragment, second.orderingFragment] }
    }
}
