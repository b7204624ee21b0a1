import BoutiqueSQLite

/// One row of a raw SQL query: its values in column order, readable by position or by column name.
///
/// ```swift
/// let row = try await db.read { conn in try conn.fetchOne("SELECT id, title FROM note") }
/// row?[1]            // .text("Groceries")
/// row?["title"]      // .text("Groceries")
/// ```
public struct DatabaseRow: Sendable, Hashable, RandomAccessCollection, CustomStringConvertible {
    /// The column names, as the query named them.
    public let columns: [String]
    /// The values, one per column.
    public let values: [DatabaseValue]

    /// A row of `values` under the column names `columns`.
    public init(columns: [String], values: [DatabaseValue]) {
        self.columns = columns
        self.values = values
    }

    public var startIndex: Int { values.startIndex }
    public var endIndex: Int { values.endIndex }

    /// The value at a column position; `.null` past the last column, so a mistyped index never traps.
    public subscript(position: Int) -> DatabaseValue {
        values.indices.contains(position) ? values[position] : .null
    }

    /// The value of the first column with this name (compared case-insensitively, as SQL does), or `nil`
    /// when the row has no such column.
    public subscript(column: String) -> DatabaseValue? {
        if let index = columns.firstIndex(of: column) { return values[safe: index] }
        let lowered = column.lowercased()
        return columns.firstIndex { $0.lowercased() == lowered }.flatMap { values[safe: $0] }
    }

    public var description: String {
        zip(columns, values).map { "\($0): \($1)" }.joined(separator: ", ")
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
