/// An expression of several columns that a `select` reads as that many result columns, where
/// everywhere else it is one row value: a group of columns (`select(\.timestamps)`), which SQLite
/// refuses to select as the row value `("createdAt", "updatedAt")`.
protocol ColumnListExpression {
    /// The columns, comma-separated and without parentheses: what a selection lists.
    var selectedColumns: QueryFragment { get }
}

extension QueryExpression {
    /// What a `select` lists for the expression: its columns for a group of columns, its SQL otherwise.
    var selectionFragment: QueryFragment {
        (self as? any ColumnListExpression)?.selectedColumns ?? queryFragment
    }
}
