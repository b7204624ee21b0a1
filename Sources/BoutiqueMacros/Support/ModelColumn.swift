import SwiftSyntax

/// One column of a `@Table` (or one field of a `@Selection`) struct, with everything the expansion needs.
///
/// ```swift
/// @Column("body_text", as: Date.ISO8601Representation.self) var writtenAt: Date?
/// // swiftName "writtenAt", sqlName "body_text", valueType "Date?",
/// // representation "Date.ISO8601Representation?", isOptional true
/// ```
struct ModelColumn {
    let property: StoredProperty
    /// The column's SQL name.
    let sqlName: String
    /// The property's Swift type, as source text.
    var valueType: String
    /// The representation the column is stored with: the `as:` type (made optional for an optional
    /// property), or the property's type.
    var representation: String
    let isOptional: Bool
    /// The `generated:` argument (`.virtual("lower(title)")`, or `.stored` when the app's SQL gives the
    /// expression); generated columns are never written.
    let generated: ExprSyntax?
    /// Source text of the `DatabaseValue` for a literal default (`.integer(0)`), if any.
    let defaultValue: String?
    var isPrimaryKey = false
    /// `@Column(lazyInitializable: true)` on a column that is not optional: optional in the `Draft`.
    var isLazyInitializable = false
    /// Where diagnostics about the column point: its `@Column` attribute, or else its name.
    let anchor: Syntax

    /// The property's name as Swift code (backticks kept).
    var swiftName: String { property.identifier }

    /// `true` unless the column is generated.
    var isWritable: Bool { generated == nil }
}
