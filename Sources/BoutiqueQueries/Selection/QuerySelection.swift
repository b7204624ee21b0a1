import BoutiqueSQLite

/// A struct a query selects into: its fields are read from consecutive result columns, in order.
/// Declare one with the `@Selection` macro.
///
/// ```swift
/// @Selection
/// struct NoteSummary { let title: String; let tagCount: Int }
///
/// Note.all.select { NoteSummary.Columns(title: $0.title, tagCount: $0.id.count()) }
/// ```
///
/// A selection is also a ``Table`` named after its type (`noteSummary`), with one column per field
/// and no primary key: a common table expression's rows are declared this way, and the statement
/// after the `WITH` reads them as it reads any table's (`NoteSummary.where { … }`, a join). It is read
/// from several columns, so it has no single stored value: `encode(_:)` gives NULL and `sqlType` is
/// `ANY`.
public protocol QuerySelection: Table {}

extension QuerySelection {
    /// NULL: a selection spans several columns and has no single stored value.
    public static func encode(_ output: Self) -> DatabaseValue { .null }

    /// `ANY`: a selection is not stored in one column.
    public static var sqlType: SQLType { .any }
}

extension QuerySelection {
    /// A selection stored as one field of a table is a group of the table's columns, named as its
    /// fields are: `@Table struct Reminder { let id: Int; let timestamps: Timestamps }` has the columns
    /// `id`, `createdAt` and `updatedAt`.
    public static var groupedColumns: [ColumnSchema]? { TableColumns.allColumns }
}
