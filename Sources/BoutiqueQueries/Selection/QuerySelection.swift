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
/// A selection is read from several columns, so it has no single stored value: `encode(_:)` gives
/// NULL and `sqlType` is `ANY`.
public protocol QuerySelection: QueryRepresentable where QueryOutput == Self {
    /// Reads the fields from the decoder's current column on, one column each.
    init(decoder: inout RowDecoder) throws(BoutiqueError)
}

extension QuerySelection {
    /// Reads the selection's fields with ``init(decoder:)``.
    @inlinable
    public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> Self {
        try Self(decoder: &decoder)
    }

    /// NULL: a selection spans several columns and has no single stored value.
    public static func encode(_ output: Self) -> DatabaseValue { .null }

    /// `ANY`: a selection is not stored in one column.
    public static var sqlType: SQLType { .any }
}
