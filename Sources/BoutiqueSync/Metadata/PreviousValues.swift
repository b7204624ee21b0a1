/// The value each foreign-key column of a synced row had before its winning write, in
/// `boutique_sync_previous`: where a row goes back to when a move into a parent deleted elsewhere loses.
///
/// A row's merge state keeps only each column's winner, so the value a move replaced is noted here
/// whenever the winner of a foreign-key column changes: when a local transaction is folded in and when
/// pulled changes are merged (the value before the batch, or an earlier change of the same batch). A
/// note names the winning write's stamp, so it is used only while that write still wins.
enum PreviousValues {
    /// Forgets what the row of `table` with `key` held before its moves (the row left this device).
    static func forget(table: String, key: DatabaseValue, sql: SQLRunner) throws {
        try sql.run("DELETE FROM boutique_sync_previous WHERE tbl = ? AND key = ?", [.text(table), key])
    }

    /// Notes what `column` held before `merged`'s winner, when the winner is new: the latest current
    /// value among the state before and the arrivals, older than the winner and different from it.
    static func track(
        table: SyncedTable, key: DatabaseValue, before: RowRegister?, arrivals: [RowRegister], merged: RowRegister, sql: SQLRunner
    ) throws {
        for column in table.foreignKeyColumns {
            guard let winner = merged.cells[column], merged.isCurrent(winner), before?.cells[column] != winner else { continue }
            var previous: CellRegister?
            for cell in [before?.cells[column]] + arrivals.map({ $0.cells[column] }) {
                // A value written before the row's latest delete belongs to the deleted row, not to this one.
                guard let cell, cell.stamp < winner.stamp, merged.isCurrent(cell), cell.value != winner.value else { continue }
                if previous.map({ $0.stamp < cell.stamp }) ?? true { previous = cell }
            }
            guard let previous else { continue }
            try sql.run(
                """
                INSERT OR REPLACE INTO boutique_sync_previous(tbl, key, col, value, replaced_time, replaced_writer)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [.text(table.lowercasedName), key, .text(column), previous.value,
                 .integer(Int64(bitPattern: winner.stamp.time.rawValue)), .text(winner.stamp.replica)])
        }
    }

    /// The value `column` had before the write at `stamp`, when one was noted for that write; `nil`
    /// when none was (the row was never seen elsewhere, or the device joined after the move).
    static func value(table: String, key: DatabaseValue, column: String, replacedBy stamp: SyncStamp, sql: SQLRunner) throws
        -> DatabaseValue?
    {
        try sql.rows(
            """
            SELECT value FROM boutique_sync_previous
            WHERE tbl = ? AND key = ? AND col = ? AND replaced_time = ? AND replaced_writer = ?
            """,
            [.text(table), key, .text(column), .integer(Int64(bitPattern: stamp.time.rawValue)), .text(stamp.replica)]
        ).first?.first
    }
}
