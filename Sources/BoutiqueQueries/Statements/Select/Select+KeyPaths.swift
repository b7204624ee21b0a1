// Key-path shorthands for the common one-column cases: `order(by: \.title)` reads as
// `order { $0.title }`. `select(\.title)`, `where(\.isDone)` and `group(by: \.id)` need no overload
// of their own: Swift passes a key path literal where a closure is expected.

extension Select {
    /// Orders the rows by one column, ascending: `Reminder.all.order(by: \.title)`.
    public func order(by keyPath: KeyPath<Columns, some QueryExpression>) -> Self {
        let term = columns[keyPath: keyPath].queryFragment
        return with { $0.orderBy.append(term) }
    }
}

extension Table {
    /// The rows ordered by one column, ascending: `Reminder.order(by: \.title)`.
    public static func order(by keyPath: KeyPath<TableColumns, some QueryExpression>) -> Select<TableColumns, Self> {
        all.order(by: keyPath)
    }
}
