/// Turns the whole strings an app writes to its collaborative text columns into text operations, once
/// per local transaction, and keeps them (`boutique_sync_text_ops`) until the server acknowledges the
/// transaction.
///
/// Whatever wrote the value (the query builder, raw SQL, another process), the change log holds the
/// transaction's new value; folding the transaction diffs it against the column's collaborative text
/// (kept in the row's merge state, never in the app's table) as this replica. The push then carries
/// the operations, the same bytes at every retry, so a retried push keeps its digest.
enum CollaborativeTextCapture {
    /// Replaces the plain values `change` gives `table`'s collaborative columns by the operations
    /// that make the row's text (in `state`, before the change) show them, and records those for
    /// `transaction`. The operations' writer is the change's stamp's: the writing session of this
    /// file, which a copy or a restored backup of the file never reuses, so two histories of one file
    /// never write different characters under the same ids. Returns whether a value was not already the text it stands for (NULL, a number):
    /// the table is then made to show the text.
    ///
    /// The row's text in `state` becomes the edited one (its stamp unchanged: merging the change
    /// stamps it), so that merging the change finds its operations applied already.
    static func capture(
        _ change: inout SyncChange, table: SyncedTable, transaction: Int64, state: inout RowRegister, sql: SQLRunner
    ) throws -> Bool {
        var reshow = false
        for index in change.columns.indices where table.collaborativeColumns.contains(change.columns[index].name) {
            let column = change.columns[index]
            guard !CollaborativeTextValue.isEncoded(column.value) else { continue }
            var text = try state.cells[column.name].map { try CollaborativeTextValue.text(of: $0.value, stamp: $0.stamp) }
                ?? CollaborativeText()
            let new = CollaborativeTextValue.plainText(column.value)
            if column.value != .text(new) { reshow = true }
            let operations = try text.replaceText(with: new, by: change.stamp.replica)
            if let cell = state.cells[column.name] {
                state.cells[column.name] = CellRegister(value: CollaborativeTextValue.state(text).value, stamp: cell.stamp)
            }
            let value = CollaborativeTextValue.operations(operations).value
            try sql.run(
                "INSERT OR REPLACE INTO boutique_sync_text_ops(txn, tbl, key, col, operations) VALUES (?, ?, ?, ?, ?)",
                [.integer(transaction), .text(change.table), change.key, .text(column.name), value])
            change.columns[index].value = value
        }
        return reshow
    }

    /// The operations recorded for the local transactions after `after` through `through`.
    static func read(after: Int64, through: Int64, _ sql: SQLRunner) throws -> Captured {
        var captured = Captured()
        let rows = try sql.rows(
            "SELECT txn, tbl, key, col, operations FROM boutique_sync_text_ops WHERE txn > ? AND txn <= ?",
            [.integer(after), .integer(through)])
        for row in rows {
            guard case .integer(let transaction) = row[0], case .text(let table) = row[1], case .text(let column) = row[3] else { continue }
            captured.values[Captured.Cell(transaction: transaction, table: table, key: row[2], column: column)] = row[4]
        }
        return captured
    }

    /// Forgets the operations of transactions the server acknowledged.
    static func removeAcknowledged(through acknowledged: Int64, _ sql: SQLRunner) throws {
        try sql.run("DELETE FROM boutique_sync_text_ops WHERE txn <= ?", [.integer(acknowledged)])
    }

    /// Recorded operations, by transaction, row and column.
    struct Captured {
        struct Cell: Hashable {
            let transaction: Int64
            let table: String
            let key: DatabaseValue
            let column: String
        }

        var values: [Cell: DatabaseValue] = [:]

        /// Puts the recorded operations in place of `changes`' plain values of collaborative columns;
        /// `false` when some were not recorded yet (the transaction was not folded).
        func substitute(into changes: inout [SyncChange], transaction: Int64, tables: [String: SyncedTable]) -> Bool {
            for index in changes.indices {
                guard let table = tables[changes[index].table], !table.collaborativeColumns.isEmpty else { continue }
                for position in changes[index].columns.indices where table.collaborativeColumns.contains(changes[index].columns[position].name) {
                    let change = changes[index]
                    guard let value = values[Cell(transaction: transaction, table: change.table, key: change.key, column: change.columns[position].name)]
                    else { return false }
                    changes[index].columns[position].value = value
                }
            }
            return true
        }
    }
}
