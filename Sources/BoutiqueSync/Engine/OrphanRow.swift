/// A synced row whose foreign key points at a parent that is gone, and what becomes of it.
///
/// - A *move* (the foreign-key column's winning write came after the row's insert) loses: the column
///   goes back to the value the move replaced (``PreviousValues``), when that parent is there (or the
///   value was `NULL`). The row's content stays.
/// - Otherwise (a row added under the parent, or a move whose previous parent is gone too or unknown),
///   the key's declared `ON DELETE` action decides (``SyncForeignKey/DeleteAction``): the row goes,
///   or the column is set to `NULL` or its default (and the row goes when that value breaks the key
///   too, or the column is `NOT NULL`).
struct OrphanRow: Sendable, Hashable {
    enum Resolution: Sendable, Hashable {
        /// The row goes.
        case remove
        /// These columns (stored names) take these values.
        case set([String: DatabaseValue])
    }

    let table: String
    let key: DatabaseValue
    let resolution: Resolution
    /// What this device loses by it: its own writes the resolution undoes.
    let losses: [SyncLoss]

    /// How `state` (visible) of `key` in `table` is repaired; `nil` when its foreign keys hold.
    static func resolve(
        _ state: RowRegister, key: DatabaseValue, table: SyncedTable, own: OwnWrites, sql: SQLRunner
    ) throws -> OrphanRow? {
        var values: [String: DatabaseValue] = [:]
        var remove = false
        var losses: [SyncLoss] = []
        for foreignKey in table.foreignKeys {
            guard let column = foreignKey.column, let position = table.position(of: column),
                let cell = state.cells[column.lowercased()], state.isCurrent(cell), !cell.value.isNull,
                try !foreignKey.parentExists(cell.value, sql: sql)
            else { continue }
            let mine = try own.contains(cell.stamp)
            let name = column.lowercased()
            if cell.stamp != state.existence?.stamp,
                let previous = try PreviousValues.value(table: table.lowercasedName, key: key, column: name, replacedBy: cell.stamp, sql: sql),
                try foreignKey.parentExists(previous, sql: sql), !(previous.isNull && table.shapes[position].notNull)
            {
                values[column] = previous
                if mine {
                    losses.append(SyncLoss(
                        table: table.lowercasedName, key: key, kind: .moveIntoDeletedParent, values: [name: cell.value], stamp: cell.stamp))
                }
                continue
            }
            let replacement: DatabaseValue
            switch foreignKey.onDelete {
            case .remove:
                remove = true
                continue
            case .setNull:
                replacement = .null
            case .setDefault:
                replacement = try table.shapes[position].defaultSQL
                    .flatMap { try sql.value("SELECT (\($0))") } ?? .null
            }
            guard !(replacement.isNull && table.shapes[position].notNull), try foreignKey.parentExists(replacement, sql: sql) else {
                remove = true
                continue
            }
            values[column] = replacement
            if mine {
                losses.append(SyncLoss(
                    table: table.lowercasedName, key: key, kind: .changedWithDeletedParent, values: [name: cell.value], stamp: cell.stamp))
            }
        }
        if remove {
            var removal: [SyncLoss] = []
            if let own = try own.cells(of: state) {
                removal = [SyncLoss(
                    table: table.lowercasedName, key: key, kind: .removedWithDeletedParent, values: state.visibleValues, stamp: own.latest)]
            }
            return OrphanRow(table: table.lowercasedName, key: key, resolution: .remove, losses: removal)
        }
        guard !values.isEmpty else { return nil }
        return OrphanRow(table: table.lowercasedName, key: key, resolution: .set(values), losses: losses)
    }
}
