/// Values pulled for tables or columns this app version did not have, written once it has them.
///
/// The values themselves are in the row states (a state holds every column any device wrote);
/// `boutique_sync_parked` names the tables and columns that hold such values. When a migration has
/// added one (sync reads the schema when it starts), its table is projected again from the states.
/// `#row` marks a table where the table refused a row (a constraint); those are retried once per
/// session.
enum ParkedValues {
    /// Notes that `table` has values parked in `column` (`""`: the whole table is unknown here, `#row`:
    /// the table refused a row).
    static func note(table: String, column: String, sql: SQLRunner) throws {
        try sql.run("INSERT OR IGNORE INTO boutique_sync_parked(tbl, col) VALUES (?, ?)", [.text(table), .text(column)])
    }

    static func apply(tables: [String: SyncedTable], retryingRefusedRows: Bool, sql: SQLRunner) throws {
        let parked = try sql.rows("SELECT tbl, col FROM boutique_sync_parked")
        guard !parked.isEmpty else { return }
        var reprojected: Set<String> = []
        for row in parked {
            guard case .text(let name) = row[0], case .text(let column) = row[1], let table = tables[name] else { continue }
            let ready = column.isEmpty || (column == "#row" && retryingRefusedRows) || table.position(of: column) != nil
            guard ready else { continue }
            try sql.run("DELETE FROM boutique_sync_parked WHERE tbl = ? AND col = ?", [.text(name), .text(column)])
            guard reprojected.insert(name).inserted else { continue }
            var applier = try RemoteApplier(sql: sql, tables: tables)
            for (key, state) in try RowStates(sql: sql).states(table: name) where state.isVisible {
                try applier.projectOrPark(
                    state, key: key, table: table, effect: MergeRule.Effect(wasVisible: false, isVisible: true, changedColumns: []))
            }
        }
    }
}
