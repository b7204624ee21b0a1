/// One way the database's schema differs from what the code expects.
///
/// ```swift
/// for difference in try await db.schemaDifferences(expected: [noteSchema]) {
///     print(difference)   // "note.isPinned is missing"
/// }
/// ```
public enum SchemaDifference: Sendable, Hashable, CustomStringConvertible {
    /// The table does not exist.
    case missingTable(String)
    /// The table exists without this column.
    case missingColumn(table: String, column: String)
    /// The column is declared with another type.
    case typeMismatch(table: String, column: String, expected: String, actual: String)
    /// The column's `NOT NULL` differs: `expectedNotNull` is what the code expects.
    case nullabilityMismatch(table: String, column: String, expectedNotNull: Bool)

    public var description: String {
        switch self {
        case .missingTable(let table):
            "table \(table) is missing"
        case .missingColumn(let table, let column):
            "\(table).\(column) is missing"
        case .typeMismatch(let table, let column, let expected, let actual):
            "\(table).\(column) is declared \(actual.isEmpty ? "without a type" : actual), expected \(expected)"
        case .nullabilityMismatch(let table, let column, let expectedNotNull):
            "\(table).\(column) is \(expectedNotNull ? "nullable" : "NOT NULL"), expected \(expectedNotNull ? "NOT NULL" : "nullable")"
        }
    }
}
