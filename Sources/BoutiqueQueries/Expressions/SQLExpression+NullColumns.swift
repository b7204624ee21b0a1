import BoutiqueSQLite

extension SQLExpression where QueryValue: QueryRepresentable {
    /// The value `nil` as a select lists it: `NULL` in each column of an optional group of columns
    /// (`NULL, NULL` for a `Timestamps?`), one bound NULL for a value stored in one column. It is what
    /// a table's `Columns(…)` gives an optional field that is left out.
    ///
    /// ```swift
    /// Note.select { Note.Columns(id: $0.id, title: $0.title) }   // timestamps: NULL, NULL
    /// ```
    public static var nullColumns: SQLExpression {
        guard let columns = QueryValue.groupedColumns else { return SQLExpression(QueryFragment(binding: .null)) }
        return SQLExpression(Array(repeating: "NULL", count: columns.count).joined(separator: ", "))
    }
}
