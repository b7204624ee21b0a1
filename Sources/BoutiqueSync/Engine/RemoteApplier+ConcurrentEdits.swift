extension RemoteApplier {
    /// Notes the edits of this device that the batch's changes overwrote without their writers having
    /// them (``SyncLoss/Kind/editBeatenByConcurrentEdit``).
    ///
    /// An edit is a column of the row's state before the batch that this file wrote and that a later
    /// write replaced. It was overwritten concurrently when a change of the batch that beats it on that
    /// column was made by a device whose pull had not brought it (``SyncChange/seen`` before the edit's
    /// place in the log, or the edit not in the log at all); knowingly when one was made after pulling
    /// it. A state (a snapshot's row, a row moving in) carries no cursor: its later cells beat the edit
    /// concurrently only when the server never logged the edit, and decide nothing otherwise. An edit both overwrote knowingly and concurrently was read and changed by someone, and is no
    /// loss, nor is one whose value the row keeps anyway; a writer that did not say how far it had pulled decides nothing, and neither reports.
    ///
    /// The edit leaves the row's state here, so it is reported once: with the columns of one write
    /// together, as that write set them, and the row as this device showed it.
    mutating func noteConcurrentOverwrites(
        _ row: PendingRows.Row, before: RowRegister, after: RowRegister, table: SyncedTable?, positions: OwnLogPositions
    ) throws {
        // A row that was gone lost its edits to the delete (``SyncLoss/Kind/editBeatenByDelete``); an
        // insert bringing it back writes a new row over them. A row with no existence at all (its
        // insert was refused, and this file's later edits of it wait on the server) lost nothing to a
        // delete: an insert made without those edits overwrites them concurrently.
        guard before.isVisible || (before.existence == nil && before.lastDelete == nil) else { return }
        var lost: [SyncStamp: [String: DatabaseValue]] = [:]
        for (name, cell) in before.cells where before.isCurrent(cell) {
            // A delete after the edit discarded it, whatever came after the delete.
            if let deleted = after.lastDelete, cell.stamp < deleted { continue }
            // A write replaced by the same value lost nothing (two devices repairing one row alike);
            // nor did a collaborative text edit: the merged text holds it.
            guard table?.collaborativeColumns.contains(name) != true, let winner = after.cells[name], winner.stamp != cell.stamp, winner.value != cell.value, after.isCurrent(winner),
                try ownWrites.contains(cell.stamp)
            else { continue }
            var concurrent = false
            var settled = false
            for arrival in row.arrivals {
                if case .state(let state) = arrival {
                    // A snapshot's row or one moving in: its cells carry no cursor.
                    guard let beater = state.cells[name], cell.stamp < beater.stamp, try !ownWrites.contains(beater.stamp) else { continue }
                    if try positions.knewInState(cell.stamp) == false { concurrent = true } else { settled = true }
                    continue
                }
                guard case .change(let change) = arrival, cell.stamp < change.stamp, change.kind != .delete,
                    change.columns.contains(where: { $0.name == name })
                else { continue }
                // A write of this file's own (a copy of it, under another id) knew its earlier writes.
                if try ownWrites.contains(change.stamp) {
                    settled = true
                    continue
                }
                switch try positions.knew(cell.stamp, seen: change.seen) {
                case false?: concurrent = true
                case true?, nil: settled = true
                }
            }
            if concurrent, !settled { lost[cell.stamp, default: [:]][name] = cell.value }
        }
        guard !lost.isEmpty else { return }
        let shown = before.isVisible ? before.visibleValues : [:]
        for (stamp, values) in lost.sorted(by: { $0.key < $1.key }) {
            losses.append(SyncLoss(
                table: row.id.table, key: row.id.key, kind: .editBeatenByConcurrentEdit, values: values, stamp: stamp, row: shown))
        }
    }
}
