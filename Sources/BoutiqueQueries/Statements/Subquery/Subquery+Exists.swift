extension PartialSelectStatement {
    /// `EXISTS (subquery)`: true when the statement returns at least one row.
    ///
    /// ```swift
    /// RemindersList.where { list in Reminder.where { $0.listID == list.id }.exists() }
    /// ```
    public func exists() -> SQLExpression<Bool> {
        SQLExpression("(EXISTS (" + query + "))")
    }
}

extension Table {
    /// `EXISTS (SELECT … FROM "table")`: true when the table has at least one row.
    public static func exists() -> SQLExpression<Bool> { all.exists() }
}

extension QueryExpression where QueryValue: QueryRepresentable {
    /// `x NOT IN (subquery)`: true when the subquery returns no row equal to `x`.
    public func notIn(_ subquery: some PartialSelectStatement<QueryValue.QueryOutput>) -> SQLExpression<Bool> {
        SQLExpression("(" + queryFragment + " NOT IN (" + subquery.query + "))")
    }

    /// `x NOT IN (?, ?, …)`; an empty list excludes nothing.
    public func notIn(_ values: some Sequence<QueryValue.QueryOutput>) -> SQLExpression<Bool> {
        let list = values.map { QueryValue.bound($0) }
        guard !list.isEmpty else { return SQLExpression("1") }
        return SQLExpression("(" + queryFragment + " NOT IN (" + list.joined(separator: ", ") + "))")
    }
}
