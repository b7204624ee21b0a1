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
@attached(member, names: named(_BoutiqueTypes))
@attached(
    extension,
    conformances: Table, PrimaryKeyedTable, JSONPathObject,
    names: named(TableColumns), named(columns), named(tableName), named(init(decoder:)),
    named(encodeColumns(into:)), named(Draft), named(JSONPathMembers), named(jsonPathMembers), named(JSONPathWritten)
)
public macro Table(_ name: String? = nil) = #externalMacro(module: "BoutiqueMacros", type: "TableMacro")
