extension RemoteApplier {
    /// New rows of one table with every column, waiting to be inserted many to a statement: their values
    /// back to back in whole-row order, and which pending row each is.
    struct NewRows {
        let table: SyncedTable
        var rows: [Int] = []
        var values: [DatabaseValue] = []

        /// Each table's waiting rows, tables in the order the batch first inserted into them. A batch
        /// inserts into a few tables, mostly one after the other: the table of the last row is tried
        /// first, and the others are found by identity, without hashing names.
        struct Queue {
            var tables: [NewRows] = []
            private var last = 0

            mutating func index(of table: SyncedTable) -> Int {
                if tables.indices.contains(last), tables[last].table === table { return last }
                if let known = tables.firstIndex(where: { $0.table === table }) {
                    last = known
                } else {
                    last = tables.count
                    tables.append(NewRows(table: table))
                }
                return last
            }
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
        let index = queue.index(of: table)
        guard queue.tables[index].add(row: row, write) == RowProjector.rowsPerInsert else { return }
        try insert(queue.tables[index], pending: pending)
        queue.tables[index].removeAll()
    }

    /// Inserts the rows still waiting, table by table.
    mutating func insertQueued(_ queue: inout NewRows.Queue, pending: PendingRows) throws {
        for waiting in queue.tables where !waiting.rows.isEmpty { try insert(waiting, pending: pending) }
        queue = NewRows.Queue()
    }

    /// Inserts new rows in one statement; a statement the table refuses is retried row by row.
    private mutating func insert(_ new: NewRows, pending: PendingRows) throws {
        let table = new.table
        do {
            try RowProjector(sql: sql).insert(new.values[...], rows: new.rows.count, into: table)
            appliedRows += new.rows.count
            touchedTables.insert(table.lowercasedName)
        } catch let error as SQLiteError where error.code == .constraint {
            for index in new.rows {
                let row = pending.rows[index]
                try projectOrPark(
                    row.merged(textColumns: table.collaborativeColumns), key: row.id.key, table: table,
                    effect: MergeRule.Effect(wasVisible: false, isVisible: true, changedColumns: []))
            }
        }
    }
}
