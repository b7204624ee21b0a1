import BoutiqueSQLite
import Foundation

/// Finds the attachments the rows of a database point at, without knowing its models: every text value
/// of every table that reads as an ``Attachment`` (a JSON object with a valid id, a byte count and a
/// content type) is one.
///
/// ```swift
/// let referenced = try await database.read { conn in try AttachmentReferences.all(in: conn) }
/// ```
///
/// It reads every row once, which suits a tool or an occasional inventory, not a hot path. The change
/// log (`turso_cdc`), SQLite's own tables and virtual tables (full-text indexes, whose content is a copy
/// of a table's) are skipped.
package enum AttachmentReferences {
    /// Every attachment a row of the database points at, leaving out the tables named in `skipping`
    /// (lowercased names).
    package static func all(in conn: DatabaseConnection, skipping: Set<String> = []) throws -> Set<Attachment> {
        let tables = try conn.fetchAll(
            """
            SELECT name FROM sqlite_schema
            WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE 'turso\\_cdc%' ESCAPE '\\'
              AND coalesce(sql, '') NOT LIKE 'CREATE VIRTUAL%'
            ORDER BY name
            """
        ).compactMap { row -> String? in if case .text(let name) = row[0] { name } else { nil } }
        var found = Set<Attachment>()
        for table in tables where !skipping.contains(table.lowercased()) {
            let columns = try conn.fetchAll("SELECT name FROM pragma_table_info(?)", [.text(table)])
                .compactMap { row -> String? in if case .text(let name) = row[0] { name } else { nil } }
            for column in columns {
                for row in try conn.fetchAll(query(table: table, column: column)) {
                    guard case .text(let text) = row[0],
                        let attachment = try? JSONDecoder().decode(Attachment.self, from: Data(text.utf8))
                    else { continue }
                    found.insert(attachment)
                }
            }
        }
        return found
    }

    /// The distinct values of `column` that have an attachment's shape. The `CASE` keeps the JSON
    /// functions away from text that is not JSON (they would fail the statement).
    private static func query(table: String, column: String) -> String {
        let value = SQLIdentifier.quote(column)
        return """
            SELECT DISTINCT \(value) FROM \(SQLIdentifier.quote(table))
            WHERE CASE WHEN typeof(\(value)) = 'text' AND \(value) LIKE '{%' AND json_valid(\(value))
                THEN json_type(\(value), '$.id') = 'text' AND json_type(\(value), '$.byteCount') = 'integer'
                    AND json_type(\(value), '$.contentType') = 'text'
                ELSE 0 END
            """
    }
}
