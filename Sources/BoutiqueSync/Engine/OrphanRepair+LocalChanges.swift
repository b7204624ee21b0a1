extension OrphanRepair {
    /// Writes resolved rows as local changes, which push sends: a removed row is written back from its
    /// state and deleted in one local transaction (the log then holds its delete); a row whose columns
    /// are resolved gets them assigned again (the table shows them already; the log then holds an update
    /// of those columns alone, so no other column is written anew). A row whose parent is back by now,
    /// or whose state no longer shows it, stays as it is. Returns the losses of the rows repaired.
    static func writeAsLocalChanges(_ orphans: [OrphanRow], tables: [String: SyncedTable], sql: SQLRunner) throws -> [SyncLoss] {
        let states = try RowStates(sql: sql)
        let projector = RowProjector(sql: sql)
        var losses: [SyncLoss] = []
        var removed: [String: (table: SyncedTable, rows: [DatabaseValue: [SyncLoss]])] = [:]
        for orphan in orphans {
            guard let table = tables[orphan.table], let state = try states.state(table: orphan.table, key: orphan.key),
                state.isVisible
            else { continue }
            let present = try sql.value(
                "SELECT 1 FROM \(SQLIdentifier.quote(table.name)) WHERE \(SQLIdentifier.quote(table.keyColumn)) = ?", [orphan.key])
            switch orphan.resolution {
            case .set(let values):
                guard present != nil else { continue }
                try assign(values, key: orphan.key, table: table, sql: sql)
                losses += orphan.losses
            case .remove:
                guard present == nil else { continue }
                do {
                    try projector.write(state, key: orphan.key, table: table)
                    removed[orphan.table, default: (table, [:])].rows[orphan.key] = orphan.losses
                } catch let error as SQLiteError where error.code == .constraint {
                    continue
                }
            }
        }
        for (_, entry) in removed {
            for key in try keysBreakingForeignKeys(in: entry.table, sql: sql) {
                try projector.delete(key: key, table: entry.table)
                losses += entry.rows[key] ?? []
            }
        }
        return losses
    }
}
