import BoutiqueSQLite

/// Everything a database holds that its change log speaks for: the schema's objects and every row of
/// every table, by rowid (or key), each value with its storage class.
///
/// ```swift
/// #expect(try DatabaseContents(of: replica) == DatabaseContents(of: original))
/// ```
///
/// Left out: the change log's own tables (the log does not log itself) and `sqlite_sequence`, SQLite's
/// record of the largest AUTOINCREMENT key, which is bookkeeping rather than data: an UPDATE that moves
/// a row to a larger key leaves it alone, while the delete and insert the log records for it would not.
struct DatabaseContents: Equatable, Sendable {
    /// `type`, `name`, `tbl_name`, `sql` of each object, by lowercased name.
    var objects: [String: [DatabaseValue]] = [:]
    /// Each table's rows, by lowercased table name: rowid (for rowid tables) and the values of every
    /// column, virtual ones included.
    var rows: [String: [[DatabaseValue]]] = [:]

    static let unlogged: Set<String> = ["turso_cdc", "turso_cdc_version", "sqlite_sequence", "sqlite_stat1"]

    init(of connection: Connection) throws {
        let schema = try connection.fetchRows(
            "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_autoindex%'").rows
        for object in schema {
            guard case .text(let name) = object[1], !Self.unlogged.contains(name.lowercased()) else { continue }
            objects[name.lowercased()] = object
            guard object[0] == .text("table") else { continue }
            let quoted = SQLIdentifier.quote(name)
            let withoutRowID = try connection.fetchValue(
                "SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?", [.text(name)]) == .integer(1)
            // Each value with its storage class, text as its bytes (a generated column can hold text that
            // is not UTF-8); every row, ordered whatever its key, so that two databases compare row by row.
            let columns = try connection.fetchRows("SELECT name FROM pragma_table_xinfo(?, 'main') ORDER BY cid", [.text(name)])
                .rows.compactMap { row -> String? in if case .text(let column) = row[0] { column } else { nil } }
            var selection = columns.map { column in
                let quotedColumn = SQLIdentifier.quote(column)
                return "typeof(\(quotedColumn)), CASE typeof(\(quotedColumn)) WHEN 'text' THEN CAST(\(quotedColumn) AS BLOB) ELSE \(quotedColumn) END"
            }
            if !withoutRowID { selection.insert("rowid", at: 0) }
            rows[name.lowercased()] = try connection.fetchRows("SELECT \(selection.joined(separator: ", ")) FROM \(quoted)").rows
                .sorted { Self.isOrdered($0, before: $1) }
        }
    }

    /// The first difference, for a failure message.
    func difference(from other: DatabaseContents) -> String? {
        for name in Set(objects.keys).union(other.objects.keys).sorted() where objects[name] != other.objects[name] {
            return "object \(name): \(objects[name].map { "\($0)" } ?? "missing") vs \(other.objects[name].map { "\($0)" } ?? "missing")"
        }
        for name in Set(rows.keys).union(other.rows.keys).sorted() where rows[name] != other.rows[name] {
            let mine = rows[name] ?? [], theirs = other.rows[name] ?? []
            let onlyMine = mine.filter { !theirs.contains($0) }.prefix(3)
            let onlyTheirs = theirs.filter { !mine.contains($0) }.prefix(3)
            return "table \(name): \(mine.count) vs \(theirs.count) rows; only here \(Array(onlyMine)); only there \(Array(onlyTheirs))"
        }
        return nil
    }

    private static func isOrdered(_ left: [DatabaseValue], before right: [DatabaseValue]) -> Bool {
        for (a, b) in zip(left, right) where a != b { return "\(a)" < "\(b)" }
        return left.count < right.count
    }
}
