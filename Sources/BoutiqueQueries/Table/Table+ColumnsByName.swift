extension Table {
    /// A column named on the table's type: `Reminder.title` is `Reminder.columns.title`, which reads well
    /// in SQL text written by hand.
    ///
    /// ```swift
    /// #sql("SELECT \(Reminder.title) FROM \(Reminder.self) WHERE \(Reminder.isDone)", as: String.self)
    /// // SELECT "reminder"."title" FROM "reminder" WHERE "reminder"."isDone"
    /// ```
    ///
    /// Swift looks a member up here only when the type has none of that name, so a table's own static
    /// members and the query methods come first.
    public static subscript<Member: QueryExpression>(dynamicMember keyPath: KeyPath<TableColumns, Member>) -> Member {
        columns[keyPath: keyPath]
    }
}
