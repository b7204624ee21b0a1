/// Makes a struct the result of a query: one field per selected expression, decoded in order.
///
/// ```swift
/// @Selection
/// struct NoteSummary { let title: String; let tagCount: Int }
///
/// Note.all.select { NoteSummary.Columns(title: $0.title, tagCount: $0.id.count()) }
/// ```
///
/// The macro adds `Columns`, an expression built from one typed expression per field, and the conformance
/// to ``QuerySelection``: the struct is also a ``Table`` named after it (`noteSummary`), without a
/// primary key, which is how a common table expression's rows are declared:
///
/// ```swift
/// @Selection struct Counts { let value: Int }
///
/// With {
///     Counts(value: 1).union(all: true, Counts.select { Counts.Columns(value: $0.value + 1) })
/// } query: {
///     Counts.limit(10)
/// }
/// ```
///
/// Fields may use `@Column(as:)` to pick a representation.
///
/// As one field of a `@Table`, a selection groups columns of that table: its fields are the table's
/// columns, in order and under their own names, read as `$0.timestamps.createdAt` and compared as a
/// whole (``ColumnGroup``):
///
/// ```swift
/// @Selection struct Timestamps { let createdAt: Date; let updatedAt: Date? }
/// @Table struct Note { let id: Int; var title: String; let timestamps: Timestamps }
/// // columns: id, title, createdAt, updatedAt
/// ```
@attached(member, names: named(_BoutiqueTypes))
@attached(
    extension, conformances: QuerySelection, JSONPathObject,
    names: named(Columns), named(TableColumns), named(columns), named(tableName), named(init(decoder:)),
    named(encodeColumns(into:)), named(JSONPathMembers), named(jsonPathMembers), named(JSONPathWritten)
)
public macro Selection() = #externalMacro(module: "BoutiqueMacros", type: "SelectionMacro")
