import BoutiqueSQLite

/// The handle on an optional group of columns: a `@Selection` struct stored as an optional field of a
/// `@Table` (`var timestamps: Timestamps?`). The group is `nil` when all of its columns are NULL.
///
/// ```swift
/// @Selection struct Timestamps { var createdAt: Date; var updatedAt: Date? }
/// @Table struct Note { let id: Int; var title: String; var timestamps: Timestamps? }
///
/// Note.where { $0.timestamps.createdAt < cutoff }   // one column, read as Date?
/// Note.where { $0.timestamps.is(nil) }              // the group absent:
/// // WHERE (("note"."createdAt", "note"."updatedAt") IS (?, ?))   with NULL, NULL bound
/// Note.select(\.timestamps)                         // reads Timestamps? values
/// ```
///
/// Each field reads as an optional column of the table (a field that is optional already stays
/// singly optional), since every column of an absent group is NULL; the group itself is an
/// expression of the whole row value, compared with a `Timestamps?` value or another group.
@dynamicMemberLookup
public struct OptionalColumnGroup<Root: Table, Group: QuerySelection>: QueryExpression, Sendable {
    public typealias QueryValue = Group?

    /// The group's columns, which it reads and renders as the non-optional group does.
    public let base: ColumnGroup<Root, Group>

    /// The optional group held in the field `name` of `Root` (what `@Table` generates for a field
    /// whose type is an optional `@Selection` struct).
    ///
    /// ```swift
    /// let timestamps = OptionalColumnGroup<Note, Timestamps>("timestamps")
    /// ```
    @inlinable
    public init(_ name: String) { base = ColumnGroup(name) }

    /// `("table"."a", "table"."b")`: the group's columns as a row value.
    public var queryFragment: QueryFragment { base.queryFragment }

    /// A field of the group that is optional itself: `$0.timestamps.updatedAt` reads `Date?`.
    public subscript<Member: QueryRepresentable>(
        dynamicMember member: KeyPath<Group.TableColumns, TableColumn<Group, Member?>>
    ) -> TableColumn<Root, Member?> {
        TableColumn<Root, Member?>(Group.columns[keyPath: member].name)
    }

    /// A field of the group, read as optional: `$0.timestamps.createdAt` reads `Date?`.
    @_disfavoredOverload
    public subscript<Member: QueryRepresentable>(
        dynamicMember member: KeyPath<Group.TableColumns, TableColumn<Group, Member>>
    ) -> TableColumn<Root, Member?> {
        TableColumn<Root, Member?>(Group.columns[keyPath: member].name)
    }

    /// A group within the group, optional as the group is: `$0.audit.timestamps.createdAt`.
    public subscript<Inner>(dynamicMember member: KeyPath<Group.TableColumns, ColumnGroup<Group, Inner>>)
        -> OptionalColumnGroup<Root, Inner>
    {
        OptionalColumnGroup<Root, Inner>(Group.columns[keyPath: member].name)
    }
}

extension OptionalColumnGroup: ColumnListExpression {
    /// `"table"."a", "table"."b"`: a selected optional group reads its columns one by one, and decodes
    /// them as `nil` when they are all NULL (`select(\.timestamps)` reads `Timestamps?` values).
    var selectedColumns: QueryFragment { base.selectedColumns }
}
