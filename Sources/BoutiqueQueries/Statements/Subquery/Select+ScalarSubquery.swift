/// A select is also an expression: its first column of its first row, `(SELECT …)`, as a scalar
/// subquery in another statement's `select`, `where` or `order` (NULL when it returns no row).
///
/// ```swift
/// RemindersList.select { list in (list.name, Reminder.where { $0.listID == list.id }.count()) }
/// ```
extension Select: QueryExpression {
    /// A subquery's value is its row's first column, read as the select reads its rows.
    public typealias QueryValue = Output

    /// The statement in parentheses: `(SELECT …)`.
    public var queryFragment: QueryFragment { "(" + query + ")" }
}
