extension RemoteApplier {
    /// A row of this device's that a pulled delete removed, to be told apart once the whole batch is
    /// merged: a repair of a row added under a parent deleted elsewhere, or an ordinary delete.
    struct RemovedRow {
        let table: SyncedTable
        let key: DatabaseValue
        let before: RowRegister
        let after: RowRegister
    }

    /// Notes what of this device's work a row that is gone after the batch takes with it: when it was
    /// there before the batch, or this device learns of it only now, everything (``noteRemoval``); when
    /// it was gone already, the edits of this device the batch brings (a file restored from a backup
    /// older than them hears of them only now, after the delete).
    mutating func noteDeadRow(_ row: PendingRows.Row, after: RowRegister, table: SyncedTable?) throws {
        if row.before?.isVisible ?? !row.later.isEmpty {
            let inserted = row.before?.existence?.stamp
                ?? row.arrivals.compactMap { $0.register.existence }.filter(\.exists).map(\.stamp).max()
            try noteRemoval(before: row.before, inserted: inserted, after: after, key: row.id.key, table: row.id.table, table: table)
            return
        }
        var arriving: Set<SyncStamp> = []
        var inserted: SyncStamp?
        for arrival in row.arrivals {
            switch arrival {
            case .change(let change):
                if change.kind == .update { arriving.insert(change.stamp) }
            case .state(let state):
                // A snapshot's row this file holds no state of: one it forgot (a refused transaction
                // sent in parts makes it take the server's version of every row it touched from a
                // snapshot) may have shown this file's edits until now, and the delete the state
                // carries discards them. The row's insert wrote its key column, and is no edit.
                for cell in state.cells.values { arriving.insert(cell.stamp) }
                if let table, let insert = state.cells[table.keyColumn.lowercased()]?.stamp, inserted.map({ $0 < insert }) ?? true {
                    inserted = insert
                }
            }
        }
        // Edits the state already held were reported when the row went (a pull of this file's own
        // writes from an earlier session brings them again).
        for cell in row.before.map({ Array($0.cells.values) }) ?? [] { arriving.remove(cell.stamp) }
        guard !arriving.isEmpty, let edits = try ownWrites.edits(of: after, since: inserted, among: arriving) else { return }
        losses.append(SyncLoss(table: row.id.table, key: row.id.key, kind: .editBeatenByDelete, values: edits.values, stamp: edits.latest))
    }

    /// Notes what a pulled delete discards of this device's work on a row: its edits are lost at once
    /// (``SyncLoss/Kind/editBeatenByDelete``: the delete wins whether it was made before or after them,
    /// since an update never brings a row back); a row it only added waits for ``settleRemovedRows()``.
    ///
    /// The edits are the columns this device's updates after the row's insert (at `inserted`) still win
    /// after the batch (an edit a later edit beat was superseded, not discarded), among them edits of its
    /// own the batch brings back: a file restored from a backup older than them, which may not even have
    /// the row (`before` is `nil`) and learns of its insert, its edits and the delete at once.
    mutating func noteRemoval(
        before: RowRegister?, inserted: SyncStamp?, after: RowRegister, key: DatabaseValue, table name: String, table: SyncedTable?
    ) throws {
        if let edits = try ownWrites.edits(of: after, since: inserted) {
            let shown = before.map { $0.isVisible ? $0.visibleValues : [:] } ?? [:]
            losses.append(SyncLoss(
                table: name, key: key, kind: .editBeatenByDelete, values: edits.values, stamp: edits.latest, row: shown))
            return
        }
        guard let before, let table, !table.foreignKeys.isEmpty, let inserted = before.existence?.stamp, try ownWrites.contains(inserted)
        else { return }
        removedRows.append(RemovedRow(table: table, key: key, before: before, after: after))
    }

    /// A move of this device that a pulled write put back where the row was: a repair made elsewhere,
    /// when the parent it moved the row to is gone after the batch.
    struct RevertedMove {
        let table: SyncedTable
        let key: DatabaseValue
        let foreignKey: SyncForeignKey
        let column: String
        let move: CellRegister
    }

    /// Notes this device's moves (foreign-key values its updates set) that the batch replaced by the
    /// value they had replaced: another device may have found the new parent deleted and repaired the
    /// row before this one did, and this device then never repairs it itself. Runs before the batch's
    /// previous values are noted.
    mutating func noteRevertedMoves(before: RowRegister, after: RowRegister, key: DatabaseValue, table: SyncedTable) throws {
        for foreignKey in table.foreignKeys {
            guard let column = foreignKey.column?.lowercased(), let move = before.cells[column], before.isCurrent(move),
                move.stamp != before.existence?.stamp, !move.value.isNull, let winner = after.cells[column], winner.stamp != move.stamp,
                try ownWrites.contains(move.stamp),
                let previous = try PreviousValues.value(table: table.lowercasedName, key: key, column: column, replacedBy: move.stamp, sql: sql),
                previous == winner.value
            else { continue }
            revertedMoves.append(RevertedMove(table: table, key: key, foreignKey: foreignKey, column: column, move: move))
        }
    }

    /// Reports the reverted moves whose parent is gone after the batch.
    mutating func settleRevertedMoves() throws {
        defer { revertedMoves.removeAll() }
        for reverted in revertedMoves where try !reverted.foreignKey.parentExists(reverted.move.value, sql: sql) {
            losses.append(SyncLoss(
                table: reverted.table.lowercasedName, key: reverted.key, kind: .moveIntoDeletedParent,
                values: [reverted.column: reverted.move.value], stamp: reverted.move.stamp))
        }
    }

    /// Reports the rows of this device that another device's repair removed: rows whose parent is gone
    /// after the batch and whose delete is not the parent's own (a delete in the parent's transaction is
    /// a cascade made by someone who saw the row; a later one is a repair of a row added concurrently).
    mutating func settleRemovedRows() throws {
        defer { removedRows.removeAll() }
        for row in removedRows {
            for foreignKey in row.table.foreignKeys {
                guard let column = foreignKey.column?.lowercased(), let cell = row.before.cells[column], row.before.isCurrent(cell),
                    !cell.value.isNull, try !foreignKey.parentExists(cell.value, sql: sql)
                else { continue }
                let parentDelete = try states.state(table: foreignKey.parent.lowercased(), key: cell.value)?.lastDelete
                guard parentDelete == nil || parentDelete != row.after.lastDelete, let own = try ownWrites.cells(of: row.before)
                else { continue }
                losses.append(SyncLoss(
                    table: row.table.lowercasedName, key: row.key, kind: .removedWithDeletedParent, values: row.before.visibleValues,
                    stamp: own.latest))
                break
            }
        }
    }
}
