import BoutiqueSQLite

/// The handle on a group of columns: a `@Selection` struct stored as one field of a `@Table`, whose
/// fields are columns of the table (named as the fields are, in order).
///
/// ```swift
/// @Selection struct Timestamps { let createdAt: Date; let updatedAt: Date? }
/// @Table struct Note { let id: Int; var title: String; let timestamps: Timestamps }
///
/// Note.where { $0.timestamps.createdAt < cutoff }   // one column of the group
/// Note.where { $0.timestamps.eq(stamps) }           // the group as a row value:
/// // WHERE (("note"."createdAt", "note"."updatedAt") = (?, ?))
/// ```
///
/// Its fields are read by dynamic member (`$0.timestamps.createdAt` is a ``TableColumn`` of the
/// table); the group itself is an expression of the whole row value, so the comparisons take it or a
/// `Timestamps` value. The lookup lives on this type rather than on ``TableColumn``, whose every member
/// access would otherwise also be tried as a dynamic member, at a cost to the type checker.
@dynamicMemberLookup
public struct ColumnGroup<Root: Table, Group: QuerySelection>: QueryExpression, Sendable {
    public typealias QueryValue = Group

    /// The field's name (not a column of the table: its columns are the group's).
    public let name: String

    /// The group held in the field `name` of `Root` (what `@Table` generates for a field whose type
    /// is a `@Selection` struct).
    ///
    /// ```swift
    /// let timestamps = ColumnGroup<Note, Timestamps>("timestamps")
    /// ```
    @inlinable
    public init(_ name: String) { self.name = name }

    /// `("table"."a", "table"."b")`: the group's columns as a row value.
    public var queryFragment: QueryFragment {
        "(" + selectedColumns + ")"
    }

    /// One column of the group, as a column of the table: `$0.timestamps.createdAt`.
    public subscript<Member>(dynamicMember member: KeyPath<Group.TableColumns, TableColumn<Group, Member>>)
        -> TableColumn<Root, Member>
    {
        TableColumn<Root, Member>(Group.columns[keyPath: member].name)
    }

    /// A group within the group: `$0.audit.timestamps.createdAt`.
    public subscript<Inner>(dynamicMember member: KeyPath<Group.TableColumns, ColumnGroup<Group, Inner>>)
        -> ColumnGroup<Root, Inner>
    {
        ColumnGroup<Root, Inner>(Group.columns[keyPath: member].name)
    }
}

extension ColumnGroup: ColumnListExpression {
    /// `"table"."a", "table"."b"`: a selected group reads its columns one by one, and decodes them
    /// as the group's struct (`select(\.timestamps)` reads `Timestamps` values).
    var selectedColumns: QueryFragment {
        let table = Root.quotedTableName
        let columns = ColumnSchema.flattened(Group.TableColumns.allColumns)
        return QueryFragment(columns.map { table + "." + SQLIdentifier.quote($0.name) }.joined(separator: ", "))
    }
}
