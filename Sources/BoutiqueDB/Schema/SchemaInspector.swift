import BoutiqueSQLite

/// Compares the tables in a database with expected ``TableSchema``s, reading only.
///
/// ```swift
/// let differences = try SchemaInspector.differences(in: connection, expected: [noteSchema])
/// ```
enum SchemaInspector {
    /// A column as the database declares it.
    private struct DeclaredColumn {
        var type: String
        var isNotNull: Bool
    }

    static func differences(in connection: Connection, expected: [TableSchema]) throws(SQLiteError) -> [SchemaDifference] {
        var differences: [SchemaDifference] = []
        for table in expected {
            guard let declared = try columns(of: table.name, in: connection) else {
                differences.append(.missingTable(table.name))
                continue
            }
            for column in table.columns {
                guard let actual = declared[column.name.lowercased()] else {
                    differences.append(.missingColumn(table: table.name, column: column.name))
                    continue
                }
                if normalized(actual.type) != normalized(column.type) {
                    differences.append(.typeMismatch(
                        table: table.name, column: column.name, expected: column.type, actual: actual.type))
                }
                if actual.isNotNull != column.isNotNull {
                    differences.append(.nullabilityMismatch(
                        table: table.name, column: column.name, expectedNotNull: column.isNotNull))
                }
            }
        }
        return differences
    }

    /// The declared columns of `table` keyed by lowercased name, or `nil` when there is no such table.
    ///
    /// An `INTEGER PRIMARY KEY` of a rowid table is reported as NOT NULL even when not declared so: it is
    /// the rowid and can never hold NULL.
    private static func columns(of table: String, in connection: Connection) throws(SQLiteError) -> [String: DeclaredColumn]? {
        let isTable = try connection.fetchValue(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ? COLLATE NOCASE", [.text(table)]) != nil
        guard isTable else { return nil }
        let rows = try connection.fetchRows(
            "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?)", [.text(table)]).rows
        let primaryKeyCount = rows.filter { $0.count > 3 && $0[3] != .integer(0) }.count
        var columns: [String: DeclaredColumn] = [:]
        for row in rows where row.count > 3 {
            let name = String(describing: row[0])
            let type = String(describing: row[1])
            let isRowIDAlias = primaryKeyCount == 1 && row[3] == .integer(1) && normalized(type) == "INTEGER"
            columns[name.lowercased()] = DeclaredColumn(type: type, isNotNull: row[2] == .integer(1) || isRowIDAlias)
        }
        return columns
    }

    /// A type name compared as SQLite reads it: case and spacing do not matter.
    private static func normalized(_ type: String) -> String {
        type.uppercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
