extension Select {
    /// Skips the first `count` rows. Without a ``limit(_:offset:)`` this renders `LIMIT -1 OFFSET ?`,
    /// since SQLite accepts `OFFSET` only after a `LIMIT` (-1 stands for no limit).
    public func offset(_ count: Int) -> Self {
        with { $0.offset = QueryFragment(binding: .integer(Int64(count))) }
    }
}

extension Table {
    /// Every row after the first `count`: `LIMIT -1 OFFSET ?`.
    public static func offset(_ count: Int) -> Select<TableColumns, Self> { all.offset(count) }
}
