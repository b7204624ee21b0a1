import BoutiqueSQLite

/// A typed handle on one column of a table: an expression the query builder uses as `$0.title`.
///
/// ```swift
/// Note.where { $0.title == "Groceries" }.order { $0.updatedAt.desc() }
/// ```
public struct TableColumn<Root: Table, Value: QueryRepresentable>: QueryExpression, Sendable {
    public typealias QueryValue = Value

    /// The column's SQL name.
    public let name: String

    /// The column named `name` of `Root` (`@Table` creates the handles).
    @inlinable
    public init(_ name: String) { self.name = name }

    /// `"table"."column"`.
    public var queryFragment: QueryFragment {
        QueryFragment(Root.quotedTableName + "." + SQLIdentifier.quote(name))
    }

    /// The column's SQL name, quoted but not qualified: `"column"` (for `INSERT` and `UPDATE` lists).
    public var quotedName: String { SQLIdentifier.quote(name) }
}
