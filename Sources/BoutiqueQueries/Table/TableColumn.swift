import BoutiqueSQLite

/// A typed handle on one column of a table: an expression the query builder uses as `$0.title`.
///
/// ```swift
/// Note.where { $0.title == "Groceries" }.order { $0.updatedAt.desc() }
/// ```
///
/// A field that groups columns (a `@Selection` struct, see ``QuerySelection/groupedColumns``) is a handle
/// too: its fields are the group's columns (`$0.timestamps.createdAt`), and the whole group is the row
/// value of its columns, compared as one (`$0.timestamps.eq(timestamps)` renders
/// `(("note"."createdAt", "note"."updatedAt") = (?, ?))`).
@dynamicMemberLookup
public struct TableColumn<Root: Table, Value: QueryRepresentable>: QueryExpression, Sendable {
    public typealias QueryValue = Value

    /// The column's SQL name.
    public let name: String

    /// The column named `name` of `Root` (`@Table` creates the handles).
    @inlinable
    public init(_ name: String) { self.name = name }

    /// `"table"."column"`; for a group, its columns as a row value, `("table"."a", "table"."b")`.
    public var queryFragment: QueryFragment {
        guard let group = Value.groupedColumns else {
            return QueryFragment(Root.quotedTableName + "." + SQLIdentifier.quote(name))
        }
        let table = Root.quotedTableName
        return QueryFragment(
            "(" + ColumnSchema.flattened(group).map { table + "." + SQLIdentifier.quote($0.name) }.joined(separator: ", ") + ")")
    }

    /// The column's SQL name, quoted but not qualified: `"column"` (for `INSERT` and `UPDATE` lists).
    public var quotedName: String { SQLIdentifier.quote(name) }
}

extension TableColumn where Value: QuerySelection {
    /// One column of a group, as a column of the table that holds the group: `$0.timestamps.createdAt`.
    public subscript<Member>(dynamicMember member: KeyPath<Value.TableColumns, TableColumn<Value, Member>>)
        -> TableColumn<Root, Member>
    {
        TableColumn<Root, Member>(Value.columns[keyPath: member].name)
    }
}
