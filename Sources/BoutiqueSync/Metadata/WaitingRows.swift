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

    /// Writes the rows whose parents, in `tables`, are now in their tables, and the rows waiting for
    /// those in turn. Returns the tables it wrote to.
    @discardableResult
    func release(parentsIn tables: Set<String>, synced: [String: SyncedTable]) throws -> Set<String> {
        var written: Set<String> = []
        var pending = tables
        let states = try RowStates(sql: sql)
        let projector = RowProjector(sql: sql)
        while !pending.isEmpty {
            let parents = pending
            pending = []
            for parent in parents.sorted() {
                guard let parentTable = synced[parent] else { continue }
                let waiting = try sql.rows(
                    "SELECT tbl, key, parent_key FROM boutique_sync_waiting WHERE parent_tbl = ?", [.text(parent)])
                for row in waiting {
                    guard case .text(let name) = row[0], let table = synced[name] else { continue }
                    let present = try sql.value(
                        "SELECT EXISTS (SELECT 1 FROM \(SQLIdentifier.quote(parentTable.name)) WHERE \(SQLIdentifier.quote(parentTable.keyColumn)) = ?)",
                        [row[2]])?.integerValue == 1
                    guard present else { continue }
                    try forget(table: name, key: row[1])
                    if let state = try states.state(table: name, key: row[1]), state.isVisible {
                        try projector.reproject(state, key: row[1], table: table)
                        written.insert(name)
                        pending.insert(name)
                    }
                }
            }
        }
        return written
    }
}
