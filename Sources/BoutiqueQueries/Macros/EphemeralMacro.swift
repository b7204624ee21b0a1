/// Marks a stored property of a ``Table(_:)`` that is not a column: never read from or written to the table.
///
/// ```swift
/// @Table struct Note {
///     let id: UUID
///     @Ephemeral var isSelected = false
/// }
/// ```
///
/// Decoding a row leaves the property at its default value, so it must have one.
@attached(peer)
public macro Ephemeral() = #externalMacro(module: "BoutiqueMacros", type: "EphemeralMacro")
