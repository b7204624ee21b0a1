/// Makes a struct a table: its stored properties are the columns, in declaration order.
///
/// ```swift
/// @Table
/// struct Note: Sendable {
///     @Column(primaryKey: true) let id: UUID
///     var title: String
///     var updatedAt: Date = Date()
/// }
///
/// Note.tableName           // "note"
/// Note.columns.title       // a typed column for queries
/// ```
///
/// The table is named after the type with its first letter lowercased; pass a name to choose another:
/// `@Table("notes")`. A property named `id` is the primary key unless another is marked
/// `@Column(primaryKey: true)` (or it opts out with `@Column(primaryKey: false)`); a table with a key also
/// gets a `Draft`, the row with its key optional: left out, an integer key is assigned by SQLite and a
/// UUID key is a fresh `UUID()` (`Note.Draft(title: "A", body: "")`).
/// Computed, static, `lazy` and ``Ephemeral()`` properties are not columns.
///
/// `Columns` builds a row of the table from one expression per column, in order: the select of a view
/// whose rows the type describes (``Table/createTemporaryView(ifNotExists:as:)``):
///
/// ```swift
/// @Table struct ReminderWithList { let reminderTitle: String; let listTitle: String }
///
/// ReminderWithList.createTemporaryView(
///     as: Reminder.join(RemindersList.all) { $0.listID.eq($1.id) }
///         .select { ReminderWithList.Columns(reminderTitle: $0.title, listTitle: $1.title) })
/// ```
///
/// A `Draft` is also made from a stored row, `Note.Draft(note)`, to insert a copy of it.
@attached(member, names: named(_BoutiqueTypes))
@attached(
    extension,
    conformances: Table, PrimaryKeyedTable, JSONPathObject,
    names: named(TableColumns), named(Columns), named(columns), named(tableName), named(init(decoder:)),
    named(encodeColumns(into:)), named(Draft), named(JSONPathMembers), named(jsonPathMembers), named(JSONPathWritten)
)
public macro Table(_ name: String? = nil) = #externalMacro(module: "BoutiqueMacros", type: "TableMacro")
