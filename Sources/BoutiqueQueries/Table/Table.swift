/// A Swift type stored as rows of a SQL table. Declare it with the ``Table(_:)`` macro.
///
/// ```swift
/// @Table
/// struct Note: Sendable {
///     let id: UUID
///     var title: String
/// }
/// Note.tableName    // "note"
/// ```
public protocol Table {
    /// The table's SQL name.
    static var tableName: String { get }
    /// The columns' SQL names, in declaration order.
    static var columnNames: [String] { get }
}
