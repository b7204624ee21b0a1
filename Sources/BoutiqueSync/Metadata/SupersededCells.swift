/// The cells of this file's own earlier writes that each local transaction still waiting for the
/// server's answer replaced in a row's state (`boutique_sync_superseded`): what the row goes back to
/// when the server refuses that transaction.
///
/// A row's state keeps only each column's winner, so once a later edit of this device (R) replaced an
/// earlier one (E), the state no longer holds E. Should the server refuse R, taking the server's cell
/// in its place would judge nothing of E: yet E may have been overwritten on the server by a device
/// that had not pulled it, a concurrent loss this device must be told of
/// (``SyncLoss/Kind/editBeatenByConcurrentEdit``). With E back in the state, the merge that follows the
/// refusal, or the pull that brings the overwriting change, judges E as it judges any edit.
///
/// A note is written when a local transaction is folded into the states and only when it replaced a
/// current cell this file wrote; it is dropped when the server acknowledges the transaction. A pulled
/// write that one of this file's later writes beats is merged meanwhile and never arrives again: it is
/// kept beside the notes (``OutrunArrivals``), to judge the earlier edit should it come back.
///
/// ```swift
/// try SupersededCells.note(transaction: 42, table: "note", key: key, before: before, after: state, stamp: stamp, ownWrites: own, sql: sql)
/// let cells = try SupersededCells.restoring(withdrawn: refusedStamps, table: "note", key: key, sql: sql)
/// ```
enum SupersededCells {
    /// Notes the current cells of `before` written by this file that the write at `stamp` (local
    /// transaction `transaction`) replaced in `after`.
    static func note(
        transaction: Int64, table: String, key: DatabaseValue, before: RowRegister, after: RowRegister, stamp: SyncStamp,
        ownWrites: OwnWrites, sql: SQLRunner
    ) throws {
        var replaced = RowRegister()
        for (name, cell) in before.cells where cell.stamp != stamp && after.cells[name]?.stamp == stamp && before.isCurrent(cell) {
            guard try ownWrites.contains(cell.stamp) else { continue }
            replaced.cells[name] = cell
        }
        guard !replaced.cells.isEmpty else { return }
        try sql.run(
            "INSERT OR REPLACE INTO boutique_sync_superseded(tbl, key, txn, cells) VALUES (?, ?, ?, ?)",
            [.text(table), key, .integer(transaction), .blob(replaced.record())])
    }

    /// For each cell of the row written by a withdrawn (refused) write, the earlier cell of this file
    /// it replaced, following the chain past cells that were themselves withdrawn.
    static func restoring(withdrawn: Set<SyncStamp>, table: String, key: DatabaseValue, sql: SQLRunner) throws -> [String: CellRegister] {
        let notes = try self.notes(table: table, key: key, sql: sql)
        guard !notes.isEmpty else { return [:] }
        var restored: [String: CellRegister] = [:]
        for stamp in withdrawn {
            guard let cells = notes[stamp] else { continue }
            for (name, first) in cells {
                var cell = first
                var steps = 0
                // A chain of refused writes ends at the first that was not refused, or nowhere.
                while withdrawn.contains(cell.stamp), let earlier = notes[cell.stamp]?[name], steps < notes.count {
                    cell = earlier
                    steps += 1
                }
                guard !withdrawn.contains(cell.stamp) else { continue }
                if restored[name].map({ $0.stamp < cell.stamp }) ?? true { restored[name] = cell }
            }
        }
        return restored
    }

    /// After the transactions `refused` (stamped `withdrawn`) were undone: their notes go, and a later
    /// note that names one of their cells names what that cell had replaced instead (or nothing), so
    /// that no refused write is ever put back.
    static func withdraw(_ refused: [Int64], withdrawn: Set<SyncStamp>, sql: SQLRunner) throws {
        guard !refused.isEmpty else { return }
        let rows = try sql.rows("SELECT tbl, key, txn, cells FROM boutique_sync_superseded")
        var byRow: [PendingRows.RowID: [(txn: Int64, cells: RowRegister)]] = [:]
        for row in rows {
            guard row.count == 4, case .text(let table) = row[0], case .integer(let txn) = row[2], case .blob(let bytes) = row[3] else { continue }
            byRow[PendingRows.RowID(table: table, key: row[1]), default: []].append((txn, try RowRegister(record: bytes)))
        }
        let refusedIDs = Set(refused)
        // A row's later note can name a refused cell although the refused transaction left no note of
        // that row (it replaced no cell of this file's there): every note is looked at.
        for (id, notes) in byRow
        where notes.contains(where: { note in
            refusedIDs.contains(note.txn) || note.cells.cells.values.contains { withdrawn.contains($0.stamp) }
        }) {
            let restored = try restoring(withdrawn: withdrawn, table: id.table, key: id.key, sql: sql)
            for note in notes where !refusedIDs.contains(note.txn) {
                var cells = note.cells
                for (name, cell) in note.cells.cells where withdrawn.contains(cell.stamp) { cells.cells[name] = restored[name] }
                guard cells != note.cells else { continue }
                if cells.cells.isEmpty {
                    try sql.run(
                        "DELETE FROM boutique_sync_superseded WHERE tbl = ? AND key = ? AND txn = ?",
                        [.text(id.table), id.key, .integer(note.txn)])
                } else {
                    try sql.run(
                        "UPDATE boutique_sync_superseded SET cells = ? WHERE tbl = ? AND key = ? AND txn = ?",
                        [.blob(cells.record()), .text(id.table), id.key, .integer(note.txn)])
                }
            }
        }
        for id in refused { try sql.run("DELETE FROM boutique_sync_superseded WHERE txn = ?", [.integer(id)]) }
        try OutrunArrivals.forgetSettled(sql: sql)
    }

    /// Forgets the notes of the transactions the server acknowledged (through `acknowledged`): a
    /// write it kept is never withdrawn.
    static func removeAcknowledged(through acknowledged: Int64, sql: SQLRunner) throws {
        try sql.run("DELETE FROM boutique_sync_superseded WHERE txn <= ?", [.integer(acknowledged)])
        try OutrunArrivals.forgetSettled(sql: sql)
    }

    /// Forgets every note of a row: it left this device.
    static func forget(table: String, key: DatabaseValue, sql: SQLRunner) throws {
        try sql.run("DELETE FROM boutique_sync_superseded WHERE tbl = ? AND key = ?", [.text(table), key])
        try OutrunArrivals.forget(table: table, key: key, sql: sql)
    }

    /// The row's notes, by the stamp of the write that replaced their cells.
    private static func notes(table: String, key: DatabaseValue, sql: SQLRunner) throws -> [SyncStamp: [String: CellRegister]] {
        let rows = try sql.rows(
            """
            SELECT n.cells, t.stamp, t.writer FROM boutique_sync_superseded n JOIN boutique_sync_txn t ON t.change_txn_id = n.txn
            WHERE n.tbl = ? AND n.key = ?
            """,
            [.text(table), key])
        var notes: [SyncStamp: [String: CellRegister]] = [:]
        for row in rows {
            guard row.count == 3, case .blob(let bytes) = row[0], case .integer(let time) = row[1], case .text(let writer) = row[2] else { continue }
            let stamp = SyncStamp(time: HybridTimestamp(rawValue: UInt64(bitPattern: time)), replica: writer)
            notes[stamp] = try RowRegister(record: bytes).cells
        }
        return notes
    }
}
