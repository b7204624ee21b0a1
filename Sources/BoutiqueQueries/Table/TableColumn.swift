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

extension TableColumn {
    /// The handle on the column `name`. `@Table` declares a column whose type it cannot tell from a
    /// group of columns by its name (an enum, a `@Selection` struct) with this call, whose result type
    /// the type decides: a `TableColumn`, or a ``ColumnGroup`` for a group.
    @inlinable
    public static func handle(_ name: String) -> TableColumn { TableColumn(name) }
}

extension TableColumn where Value: QuerySelection {
    /// The handle on a group of columns (a `@Selection` struct stored as one field of a table).
    @inlinable
    public static func handle(_ name: String) -> ColumnGroup<Root, Value> { ColumnGroup(name) }
}

extension TableColumn where Value: OptionalQuerySelection {
    /// The handle on an optional group of columns (`var timestamps: Timestamps?`).
    @inlinable
    public static func handle(_ name: String) -> OptionalColumnGroup<Root, Value.WrappedSelection> { OptionalColumnGroup(name) }
}
