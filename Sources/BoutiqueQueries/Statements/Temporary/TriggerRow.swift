import BoutiqueSQLite

/// The row a trigger fires for, as its body and `WHEN` condition see it: SQLite's `NEW` (the row as
/// inserted or updated) or `OLD` (the row as it was before an update or delete).
///
/// Its columns are the table's, read as `"new"."title"`:
///
/// ```swift
/// Reminder.createTemporaryTrigger(after: .insert { new in
///     RemindersList.update { $0.reminderCount += 1 }.where { $0.id.eq(new.listID) }
/// })
/// ```
@dynamicMemberLookup
public struct TriggerRow<Root: Table>: Sendable {
    /// `new` or `old`. Not public: a public property would hide the column of the same name, as a
    /// `name` property did `new.name`.
    let alias: String

    init(_ alias: String) { self.alias = alias }

    /// The column of this row: `"new"."title"`.
    public subscript<Value: QueryRepresentable>(
        dynamicMember keyPath: KeyPath<Root.TableColumns, TableColumn<Root, Value>>
    ) -> SQLExpression<Value> {
        SQLExpression(column(Root.columns[keyPath: keyPath].name))
    }

    /// The row's rowid: `"new"."rowid"` (tables declared `WITHOUT ROWID` and views have none).
    public var rowid: SQLExpression<Int> { SQLExpression(column("rowid")) }

    private func column(_ column: String) -> QueryFragment {
        QueryFragment(SQLIdentifier.quote(alias) + "." + SQLIdentifier.quote(column))
    }
}
