/// Rows kept out of their table because the row their foreign key names is one this device cannot see
/// (`boutique_sync_waiting`): a link row of a shared list pointing at another user's private tag, a
/// reminder whose list has not arrived yet. The row's state is kept; the row appears, written from
/// it, when the parent does.
///
/// Only on a server with rules: without them every device sees every row, and a missing parent is one
/// that was deleted, which ``OrphanRepair`` resolves instead.
struct WaitingRows {
    let sql: SQLRunner

    /// Keeps row `key` of `table` out of the table until row `parentKey` of `parentTable` is there.
    func park(table: SyncedTable, key: DatabaseValue, parentTable: String, parentKey: DatabaseValue) throws {
        try RowProjector(sql: sql).delete(key: key, table: table)
        try sql.run(
            "INSERT OR REPLACE INTO boutique_sync_waiting(tbl, key, parent_tbl, parent_key) VALUES (?, ?, ?, ?)",
            [.text(table.lowercasedName), key, .text(parentTable.lowercased()), parentKey])
    }

    /// Forgets a row that waited (it left the device).
    func forget(table: String, key: DatabaseValue) throws {
        try sql.run("DELETE FROM boutique_sync_waiting WHERE tbl = ? AND key = ?", [.text(table), key])
    }

    /// Writes the waiting rows whose parents are now all in their tables: those waiting for a row of
    /// `tables`, and those of `tables` (a pulled change may have pointed one at another parent), then
    /// the rows waiting for those in turn. A row still missing a parent waits for that one; a row whose
    /// state was deleted meanwhile stops waiting. Returns the tables it wrote to.
    @discardableResult
    func release(parentsIn tables: Set<String>, synced: [String: SyncedTable]) throws -> Set<String> {
        var written: Set<String> = []
        var pending = tables
        let states = try RowStates(sql: sql)
        let projector = RowProjector(sql: sql)
        while !pending.isEmpty {
            let touched = pending.sorted()
            pending = []
            var candidates: [(table: String, key: DatabaseValue)] = []
            for name in touched {
                for row in try sql.rows(
                    "SELECT tbl, key FROM boutique_sync_waiting WHERE parent_tbl = ? OR tbl = ?", [.text(name), .text(name)])
                {
                    if case .text(let table) = row[0] { candidates.append((table, row[1])) }
                }
            }
            var seen: Set<WaitingRow> = []
            for candidate in candidates where seen.insert(WaitingRow(table: candidate.table, key: candidate.key)).inserted {
                guard let table = synced[candidate.table] else { continue }
                guard let state = try states.state(table: candidate.table, key: candidate.key), state.isVisible else {
                    try forget(table: candidate.table, key: candidate.key)
                    continue
                }
                if let missing = try missingParent(of: state, table: table) {
                    try sql.run(
                        "UPDATE boutique_sync_waiting SET parent_tbl = ?, parent_key = ? WHERE tbl = ? AND key = ?",
                        [.text(missing.table), missing.key, .text(candidate.table), candidate.key])
                    continue
                }
                try forget(table: candidate.table, key: candidate.key)
                try projector.reproject(state, key: candidate.key, table: table)
                written.insert(candidate.table)
                pending.insert(candidate.table)
            }
        }
        return written
    }

    /// The first parent the row's single-column foreign keys name that is not in its table.
    private func missingParent(of state: RowRegister, table: SyncedTable) throws -> (table: String, key: DatabaseValue)? {
        for foreignKey in table.foreignKeys {
            guard let column = foreignKey.column, let cell = state.cells[column.lowercased()], state.isCurrent(cell),
                !cell.value.isNull, try !foreignKey.parentExists(cell.value, sql: sql)
            else { continue }
            return (foreignKey.parent.lowercased(), cell.value)
        }
        return nil
    }

    private struct WaitingRow: Hashable {
        let table: String
        let key: DatabaseValue
    }
}
