import BoutiqueSQLite

/// A `CREATE TEMPORARY VIEW` statement: a `@Table` type whose rows a select computes, read like any
/// table and written through `INSTEAD OF` triggers.
///
/// ```swift
/// @Table struct ReminderWithList {
///     @Column(primaryKey: true) let reminderID: Int
///     let reminderTitle: String
///     let listName: String
/// }
///
/// try ReminderWithList.createTemporaryView(as: Reminder.join(RemindersList.all) { $0.listID.eq($1.id) }
///     .select { ReminderWithList.Columns(reminderID: $0.id, reminderTitle: $0.title, listName: $1.name) }
/// ).execute(connection)
/// // CREATE TEMPORARY VIEW "reminderWithList" ("reminderID", "reminderTitle", "listName") AS SELECT …
/// ```
///
/// The view's columns are named after the type's columns, in order, whatever the select calls them.
/// A view is stored as SQL text and cannot take parameters, so the values the select binds are
/// written into the text as literals (``QueryFragment/inlined()``).
///
/// A temporary view lives on the connection that created it, until that connection closes or the view
/// is dropped: create it in `options.prepareDatabase { conn in try conn.execute(view) }` so that every
/// connection, the writer and each reader, has it.
public struct TemporaryView<View: Table>: QueryStatement, Sendable {
    public typealias Row = Void

    let ifNotExists: Bool
    let select: QueryFragment

    /// `CREATE TEMPORARY VIEW "name" ("column", …) AS SELECT …`, with every value written in.
    public var query: QueryFragment {
        var query = QueryFragment("CREATE TEMPORARY VIEW " + (ifNotExists ? "IF NOT EXISTS " : ""))
        query.append(View.quotedTableName + " (")
        query.append(View.TableColumns.allColumns.map { SQLIdentifier.quote($0.name) }.joined(separator: ", "))
        query.append(") AS ")
        query.append(select)
        return query.inlined()
    }

    public var rowSource: String { View.tableName }

    public func decodeRow(_ decoder: inout RowDecoder) throws(BoutiqueError) {}

    /// The statement that removes this view: `DROP VIEW "name"`; with `ifExists`, no error when there
    /// is none.
    public func drop(ifExists: Bool = false) -> DropStatement {
        DropStatement(kind: "VIEW", name: View.tableName, ifExists: ifExists)
    }
}

extension Table {
    /// A `CREATE TEMPORARY VIEW` named after this type, whose rows `select` computes: one value per
    /// column of the type, in order (select them with the type's `Columns`).
    ///
    /// - Parameters:
    ///   - ifNotExists: Do nothing when a view or table of that name exists.
    ///   - select: The rows of the view.
    public static func createTemporaryView(
        ifNotExists: Bool = false,
        as select: some PartialSelectStatement<Self>
    ) -> TemporaryView<Self> {
        TemporaryView(ifNotExists: ifNotExists, select: select.query)
    }
}
