/// What a table is expected to look like: its name and columns, for ``DatabaseActor/schemaDifferences(expected:)``.
///
/// ```swift
/// let note = TableSchema("note", columns: [
///     .init("id", type: "TEXT"),
///     .init("title", type: "TEXT"),
///     .init("isPinned", type: "INTEGER"),
///     .init("archivedAt", type: "REAL", isNotNull: false),
/// ])
/// ```
public struct TableSchema: Sendable, Hashable {
    /// One expected column.
    public struct Column: Sendable, Hashable {
        /// The column name (compared case-insensitively, as SQL does).
        public var name: String
        /// The declared type, e.g. `"TEXT"` (compared case-insensitively, spacing ignored).
        public var type: String
        /// Whether the column must be declared `NOT NULL`.
        public var isNotNull: Bool

        /// A column named `name`, declared `type`, `NOT NULL` unless `isNotNull` is `false`.
        public init(_ name: String, type: String, isNotNull: Bool = true) {
            self.name = name
            self.type = type
            self.isNotNull = isNotNull
        }
    }

    /// The table name (compared case-insensitively).
    public var name: String
    /// The expected columns. Columns the table has beyond these are not reported.
    public var columns: [Column]

    /// A table named `name` expected to have `columns`.
    public init(_ name: String, columns: [Column]) {
        self.name = name
        self.columns = columns
    }
}
