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
/// to ``QuerySelection``. Fields may use `@Column(as:)` to pick a representation.
@attached(member, names: named(_BoutiqueTypes))
@attached(
    extension, conformances: QuerySelection, JSONPathObject,
    names: named(Columns), named(init(decoder:)), named(JSONPathMembers), named(jsonPathMembers), named(JSONPathWritten)
)
public macro Selection() = #externalMacro(module: "BoutiqueMacros", type: "SelectionMacro")
