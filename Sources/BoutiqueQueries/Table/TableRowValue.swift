/// A value a joined select reads from one table's columns: the table's row, or an optional row where
/// an outer join can leave the table unmatched.
///
/// The joins that add a table to a join of several read the tables before it by their columns, so
/// they take only selects whose rows are these values, each of the table its column handles belong
/// to. A select that chose other values (`.select { ($0.title, $1.name) }`) then does not compile
/// with another join, instead of reading its chosen values as rows.
///
/// ```swift
/// Reminder.all.join(RemindersList.all) { $0.listID == $1.id }    // rows (Reminder, RemindersList)
///     .leftJoin(Tag.all) { $0.id == $2.reminderID }             // (Reminder, RemindersList, Tag?)
/// ```
public protocol TableRowValue: SendableMetatype {
    /// The table whose columns hold the value.
    associatedtype RowTable: Table
    /// The column handles the joined select's closures receive for the value: the table's own (a
    /// table's row, ``Table`` says so), or ``OptionalTableColumns`` of them for an optional row.
    associatedtype RowColumns: Sendable
}

extension Optional: TableRowValue where Wrapped: Table {
    /// The table whose columns hold the row, when there is one: `Tag` for a left-joined `Tag?`.
    public typealias RowTable = Wrapped
    /// The table's handles, each column read as optional.
    public typealias RowColumns = OptionalTableColumns<Wrapped.TableColumns>
}
