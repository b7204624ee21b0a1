/// A table's columns as static members of its type, for SQL written as text:
///
/// ```swift
/// #sql("SELECT \(Reminder.title), \(Reminder.isDone) FROM \(Reminder.self)", as: (String, Bool).self)
/// // SELECT "reminder"."title", "reminder"."isDone" FROM "reminder"
/// ```
///
/// `Reminder.title` is `Reminder.columns.title`: Swift finds it only where the type has no member of
/// that name of its own (a static one, or an instance property, which cannot be used on the type).
extension Table {
    /// The column `keyPath` names: `Reminder.title` is `Reminder.columns.title`.
    public static subscript<Value>(dynamicMember keyPath: KeyPath<TableColumns, TableColumn<Self, Value>>) -> TableColumn<Self, Value> {
        columns[keyPath: keyPath]
    }
}
