/// Refuses schema changes to synced tables that devices on other app versions could not follow.
///
/// Synced schemas may only grow: new tables, and new columns that are nullable or have a default. The
/// shapes are recorded in `boutique_sync_schema` whenever the check passes, and each later check
/// compares the tables with them.
enum SchemaCheck {
    static func check(_ tables: [SyncedTable], on sql: SQLRunner) throws {
        for table in tables.sorted(by: { $0.name < $1.name }) {
            let name = table.name.lowercased()
            let recorded = try sql.rows(
                "SELECT col, type, not_null, is_key FROM boutique_sync_schema WHERE tbl = ? ORDER BY position", [.text(name)])
            var current: [String: SyncedTable.ColumnShape] = [:]
            for shape in table.shapes { current[shape.name.lowercased()] = shape }
            var known: Set<String> = []
            for row in recorded {
                guard case .text(let column) = row[0], case .text(let type) = row[1] else { continue }
                known.insert(column)
                guard let now = current[column] else {
                    throw BoutiqueError.syncSchemaChange(
                        table: table.name, reason: "column '\(column)' was removed or renamed; synced columns can only be added")
                }
                if now.type != type {
                    throw BoutiqueError.syncSchemaChange(
                        table: table.name, reason: "column '\(column)' changed type from \(type.isEmpty ? "none" : type) to \(now.type.isEmpty ? "none" : now.type)")
                }
                if now.isKey != (row[3] == .integer(1)) {
                    throw BoutiqueError.syncSchemaChange(table: table.name, reason: "the primary key changed (column '\(column)')")
                }
                if now.notNull, row[2] != .integer(1) {
                    throw BoutiqueError.syncSchemaChange(
                        table: table.name, reason: "column '\(column)' became NOT NULL; rows from older versions may lack it")
                }
            }
            if !recorded.isEmpty {
                for shape in table.shapes where !known.contains(shape.name.lowercased()) && shape.notNull && !shape.hasDefault {
                    throw BoutiqueError.syncSchemaChange(
                        table: table.name,
                        reason: "new column '\(shape.name)' is NOT NULL without a default; older versions cannot fill it")
                }
            }
            try sql.run("DELETE FROM boutique_sync_schema WHERE tbl = ?", [.text(name)])
            for (position, shape) in table.shapes.enumerated() {
                try sql.run(
                    "INSERT INTO boutique_sync_schema(tbl, position, col, type, not_null, is_key) VALUES (?, ?, ?, ?, ?, ?)",
                    [.text(name), .integer(Int64(position)), .text(shape.name.lowercased()), .text(shape.type),
                     .integer(shape.notNull ? 1 : 0), .integer(shape.isKey ? 1 : 0)])
            }
        }
    }
}
