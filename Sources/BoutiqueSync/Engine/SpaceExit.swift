/// Takes rows off the device when the user can no longer see them: a space they left, a row moved to a
/// space they are not in.
///
/// Runs inside a remote transaction, so nothing of it is pushed: the rows are deleted from their tables
/// and sync forgets everything it kept of them (state, space, previous values, superseded cells, waiting). Rows of other
/// spaces whose foreign key pointed at them are kept out of their tables until the parent comes back
/// (``WaitingRows``), by the pull's foreign-key check.
enum SpaceExit {
    /// Removes `rows`; returns the tables it deleted from. The ids of the attachments the rows pointed
    /// at are added to `attachments`: their bytes leave the device too once no row it keeps points at
    /// them (``AttachmentDeparture``).
    @discardableResult
    static func remove(
        _ rows: [(table: String, key: DatabaseValue)], tables: [String: SyncedTable], attachments: inout Set<String>, sql: SQLRunner
    ) throws -> Set<String> {
        let projector = RowProjector(sql: sql)
        let labels = SpaceLabels(sql: sql)
        let waiting = WaitingRows(sql: sql)
        let states = try RowStates(sql: sql)
        var deleted: Set<String> = []
        for row in rows {
            if let state = try states.state(table: row.table, key: row.key), state.isVisible {
                for value in state.visibleValues.values { if let id = AttachmentPointers.id(of: value) { attachments.insert(id) } }
            }
            if let table = tables[row.table] {
                try projector.delete(key: row.key, table: table)
                deleted.insert(row.table)
            }
            try states.removeState(table: row.table, key: row.key)
            try PreviousValues.forget(table: row.table, key: row.key, sql: sql)
            try SupersededCells.forget(table: row.table, key: row.key, sql: sql)
            try labels.forget(table: row.table, key: row.key)
            try waiting.forget(table: row.table, key: row.key)
        }
        return deleted
    }
}
