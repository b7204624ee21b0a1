extension RemoteApplier {
    /// New rows of one table with every column, waiting to be inserted many to a statement: their values
    /// back to back in whole-row order, and which pending row each is.
    struct NewRows {
        var rows: [Int] = []
        var values: [DatabaseValue] = []

        /// Each table's waiting rows, and the order in which the batch first inserted into the tables.
        struct Queue {
            var tables: [String: NewRows] = [:]
            var order: [String] = []
        }

        /// Adds a row (`write` appends its values); returns how many rows wait now.
        mutating func add(row: Int, _ write: (inout [DatabaseValue]) -> Void) -> Int {
            rows.append(row)
            write(&values)
            return rows.count
        }

        mutating func removeAll() {
            rows.removeAll(keepingCapacity: true)
            values.removeAll(keepingCapacity: true)
        }
    }

    /// Queues a new row of `table` (`write` appends its values); a statement's worth is inserted at once,
    /// so that the values waiting stay few.
    mutating func queue(
        row: Int, of table: SyncedTable, in queue: inout NewRows.Queue, pending: PendingRows,
        _ write: (inout [DatabaseValue]) -> Void
    ) throws {
        let name = table.lowercasedName
        if queue.tables[name] == nil { queue.order.append(name) }
        let waiting = queue.tables[name, default: NewRows()].add(row: row, write)
        guard waiting == RowProjector.rowsPerInsert, let full = queue.tables[name] else { return }
        try insert(full, into: table, pending: pending)
        queue.tables[name]?.removeAll()
    }

    /// Inserts the rows still waiting, table by table.
    mutating func insertQueued(_ queue: inout NewRows.Queue, pending: PendingRows) throws {
        for name in queue.order {
            guard let table = tables[name], let waiting = queue.tables[name], !waiting.rows.isEmpty else { continue }
            try insert(waiting, into: table, pending: pending)
        }
        queue = NewRows.Queue()
    }

    /// Inserts new rows in one statement; a statement the table refuses is retried row by row.
    private mutating func insert(_ new: NewRows, into table: SyncedTable, pending: PendingRows) throws {
        do {
            try RowProjector(sql: sql).insert(new.values[...], rows: new.rows.count, into: table)
            appliedRows += new.rows.count
            touchedTables.insert(table.lowercasedName)
        } catch let error as SQLiteError where error.code == .constraint {
            for index in new.rows {
                let row = pending.rows[index]
                try projectOrPark(
                    row.merged, key: row.id.key, table: table,
                    effect: MergeRule.Effect(wasVisible: false, isVisible: true, changedColumns: []))
            }
        }
    }
}
