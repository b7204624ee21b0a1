import BoutiqueSync
import BoutiqueSyncServer

/// The merge rule written out again, as plainly as possible and apart from the library's code, to
/// check the server's state against: fold every change the server accepted, in any order.
struct ReferenceModel {
    struct Stamp: Equatable {
        let time: UInt64
        let writer: [UInt8]

        /// Later time wins; at the same time the writer id with the larger bytes.
        func isLater(than other: Stamp) -> Bool {
            if time != other.time { return time > other.time }
            return other.writer.lexicographicallyPrecedes(writer)
        }
    }

    struct Row {
        var existence: (alive: Bool, stamp: Stamp)?
        var lastDelete: Stamp?
        var cells: [String: (value: DatabaseValue, stamp: Stamp)] = [:]
    }

    struct RowID: Hashable {
        let table: String
        let key: DatabaseValue
    }

    private(set) var rows: [RowID: Row] = [:]

    mutating func apply(_ change: SyncChange) {
        let stamp = Stamp(time: change.stamp.time.rawValue, writer: Array(change.stamp.replica.utf8))
        let id = RowID(table: change.table, key: change.key)
        var row = rows[id] ?? Row()
        switch change.kind {
        case .insert, .delete:
            let alive = change.kind == .insert
            if let existing = row.existence {
                // The later one wins; at an equal stamp the delete does.
                if stamp.isLater(than: existing.stamp) || (stamp == existing.stamp && !alive) {
                    row.existence = (alive, stamp)
                }
            } else {
                row.existence = (alive, stamp)
            }
            if !alive, row.lastDelete.map({ stamp.isLater(than: $0) }) ?? true { row.lastDelete = stamp }
        case .update:
            break
        }
        for column in change.columns {
            if let existing = row.cells[column.name], !stamp.isLater(than: existing.stamp) { continue }
            row.cells[column.name] = (column.value, stamp)
        }
        rows[id] = row
    }

    /// Whether the model has `change` or something later in each place it wrote.
    func holds(_ change: SyncChange) -> Bool {
        let stamp = Stamp(time: change.stamp.time.rawValue, writer: Array(change.stamp.replica.utf8))
        guard let row = rows[RowID(table: change.table, key: change.key)] else { return false }
        if change.kind != .update {
            guard let existence = row.existence, existence.stamp == stamp || existence.stamp.isLater(than: stamp) else { return false }
        }
        if change.kind == .delete {
            guard let deleted = row.lastDelete, deleted == stamp || deleted.isLater(than: stamp) else { return false }
        }
        for column in change.columns {
            guard let cell = row.cells[column.name], cell.stamp == stamp || cell.stamp.isLater(than: stamp) else { return false }
        }
        return true
    }

    /// The writer of the delete that discarded `change` without a later write superseding it, `nil`
    /// when none did: an update of a row deleted at an earlier stamp (an update never brings a row back)
    /// that still wins a column. Its writer must have been told, unless it deleted the row itself.
    func deleter(discarding change: SyncChange) -> String? {
        guard change.kind == .update, let row = rows[RowID(table: change.table, key: change.key)],
            let existence = row.existence, !existence.alive
        else { return nil }
        let stamp = Stamp(time: change.stamp.time.rawValue, writer: Array(change.stamp.replica.utf8))
        guard change.columns.contains(where: { row.cells[$0.name]?.stamp == stamp }), !existence.stamp.isLater(than: stamp)
        else { return nil }
        return String(decoding: existence.stamp.writer, as: UTF8.self)
    }

    /// The rows that exist, with the values written after their latest delete.
    func visible(table: String) -> [DatabaseValue: [String: DatabaseValue]] {
        var result: [DatabaseValue: [String: DatabaseValue]] = [:]
        for (id, row) in rows where id.table == table && row.existence?.alive == true {
            var values: [String: DatabaseValue] = [:]
            for (name, cell) in row.cells {
                if let deleted = row.lastDelete, !cell.stamp.isLater(than: deleted) { continue }
                values[name] = cell.value
            }
            result[id.key] = values
        }
        return result
    }
}
