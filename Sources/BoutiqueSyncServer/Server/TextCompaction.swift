import BoutiqueSyncCore

/// Drops the deleted characters of collaborative texts that no edit still to come can name (DESIGN
/// section 15, "Compaction"), as part of garbage collection.
///
/// ```swift
/// let compacted = try TextCompaction.compact(in: store, after: store.logHorizon(), through: horizon)
/// ```
///
/// **When a text is stable.** The horizon is the least log position every active replica has passed:
/// what it has applied, and for a replica with text edits the server has not acknowledged, no further
/// than the position it made the oldest of them at (``/BoutiqueSyncCore/PullRequest/passedThrough``).
/// A row whose state was last set at or below the horizon holds only edits every active replica has
/// applied, and every edit still to come (unacknowledged, or not made yet) is made by a replica that
/// had applied them all: none can hang on a character deleted there, so the text is compacted through
/// its whole version (``/BoutiqueSyncCore/CollaborativeText/compact(stableThrough:)``). A row changed
/// after the horizon waits for a later round, which finds it among the changes then pruned.
///
/// **Which rows.** Those with an entry in the log between the last round's horizon and this one's, in
/// tables with collaborative text columns: a round reads the log it is about to prune (a page of whole
/// transactions at a time, keeping the keys), never the whole tenant's rows, and only on a tenant
/// whose devices named collaborative columns.
///
/// **What changes.** Only the state's bytes: the visible text, the cells' stamps, the row's sequence
/// number and placement stay, and nothing is logged. Devices keep their own tombstones; a snapshot
/// carries the compacted state, which merges with theirs.
enum TextCompaction {
    /// How many log entries a page of the window reads.
    static let pageChanges = 1_000

    /// Compacts the collaborative texts of the rows changed in (`after`, `horizon`] whose state was
    /// last set at or below `horizon`; returns how many texts lost tombstones.
    static func compact(in store: any SyncStoreTransaction, after: Int64, through horizon: Int64) throws -> Int {
        guard horizon > after else { return 0 }
        let columns = TextColumns(shapes: try store.tableShapes())
        guard !columns.isEmpty else { return 0 }

        // The rows of text tables changed in the window, each once.
        var rows: [SnapshotPosition] = []
        var seen: Set<SnapshotPosition> = []
        var position = after
        while position < horizon {
            let page = try store.changes(after: position, limit: pageChanges)
            guard let last = page.last?.entry.sequence, last > position else { break }
            for logged in page where logged.entry.sequence <= horizon {
                let table = logged.entry.change.table
                guard !columns[table.lowercased()].isEmpty else { continue }
                let row = SnapshotPosition(table: table, key: logged.entry.change.key)
                if seen.insert(row).inserted { rows.append(row) }
            }
            position = last
        }

        var compacted = 0
        for row in rows {
            guard let sequence = try store.rowSequence(table: row.table, key: row.key), sequence <= horizon,
                  var state = try store.rowState(table: row.table, key: row.key)
            else { continue }
            let named = columns[row.table.lowercased()]
            var changed = false
            for (name, cell) in state.cells where named.contains(name.lowercased()) && CollaborativeTextValue.isEncoded(cell.value) {
                // The cell holds a state, or the operations that made the text (a row whose text only
                // one change wrote). One that does not read is left as it is: the merge rule keeps
                // sound states over it.
                guard var text = try? CollaborativeTextValue(cell.value).text(), text.tombstoneCount > 0 else { continue }
                let before = text.tombstoneCount
                guard (try? text.compact(stableThrough: text.version)) != nil, text.tombstoneCount < before else { continue }
                state.cells[name] = CellRegister(value: CollaborativeTextValue.state(text).value, stamp: cell.stamp)
                changed = true
                compacted += 1
            }
            if changed { try store.replaceRowState(state, table: row.table, key: row.key) }
        }
        return compacted
    }
}
