/// Makes a synced table's row show what its merge state says, with statements whose identifiers all
/// come from the local schema (``SyncedTable``) and whose values are all bound.
struct RowProjector {
    let sql: SQLRunner

    /// Brings the row of `key` in line with `state` after a merge had `effect`.
    ///
    /// - Returns: whether the table changed.
    @discardableResult
    func project(_ state: RowRegister, key: DatabaseValue, table: SyncedTable, effect: MergeRule.Effect) throws -> Bool {
        switch (effect.wasVisible, effect.isVisible) {
        case (false, true):
            try write(state, key: key, table: table)
            return true
        case (true, false):
            try delete(key: key, table: table)
            return true
        case (true, true):
            var assignments: [String] = []
            var values: [DatabaseValue] = []
            for name in effect.changedColumns.union(effect.hiddenColumns).sorted() {
                guard let position = table.position(of: name), position != table.keyPosition else { continue }
                let column = SQLIdentifier.quote(table.storedColumns[position])
                if let cell = state.cells[name], state.isCurrent(cell) {
                    // A text awaiting its snapshot keeps what the table shows until the snapshot comes.
                    if Self.awaitsSnapshot(cell) { continue }
                    assignments.append(column + " = ?")
                    values.append(table.shown(cell.value, column: name))
                } else if effect.hiddenColumns.contains(name) {
                    // A value of the deleted row: the revived row shows the column's default. The
                    // default's text is the local schema's own, like the identifiers.
                    assignments.append(column + " = " + (table.shapes[position].defaultSQL.map { "(\($0))" } ?? "NULL"))
                }
            }
            guard !assignments.isEmpty else { return false }
            try sql.run(
                "UPDATE \(SQLIdentifier.quote(table.name)) SET \(assignments.joined(separator: ", ")) WHERE \(SQLIdentifier.quote(table.keyColumn)) = ?",
                values + [key])
            return true
        case (false, false):
            return false
        }
    }

    /// Writes the row as the state shows it: inserted, or replaced when a row with the key is there.
    /// How many new rows one `INSERT` writes.
    static let rowsPerInsert = 50

    /// The row's values in ``SyncedTable/wholeRowOrder`` when it has a current value for every synced
    /// column (most rows do), else `nil`.
    static func wholeRow(_ state: RowRegister, key: DatabaseValue, table: SyncedTable) -> [DatabaseValue]? {
        var whole: [DatabaseValue] = [key]
        whole.reserveCapacity(table.wholeRowOrder.count)
        for name in table.wholeRowOrder.dropFirst() {
            guard let cell = state.cells[name], state.isCurrent(cell), !awaitsSnapshot(cell) else { return nil }
            whole.append(table.shown(cell.value, column: name))
        }
        return whole
    }

    /// Inserts `rows` whole rows (``wholeRow(_:key:table:)``), their values back to back, all in one statement.
    func insert(_ values: ArraySlice<DatabaseValue>, rows: Int, into table: SyncedTable) throws {
        guard rows > 0 else { return }
        let statement = try sql.connection.cachedStatement(table.wholeRowsInsert(count: rows))
        defer { try? statement.reset() }
        var index: Int32 = 1
        for value in values {
            try statement.bind(value, at: index)
            index += 1
        }
        try statement.run()
    }

    func write(_ state: RowRegister, key: DatabaseValue, table: SyncedTable) throws {
        // Most rows have a current value for every column: one statement, built once per table.
        if let whole = Self.wholeRow(state, key: key, table: table) {
            try sql.run(table.wholeRowUpsert, whole)
            return
        }
        var names = [table.keyColumn]
        var values = [key]
        for (name, cell) in state.cells.sorted(by: { $0.key < $1.key }) where state.isCurrent(cell) && !Self.awaitsSnapshot(cell) {
            guard let position = table.position(of: name), position != table.keyPosition else { continue }
            names.append(table.storedColumns[position])
            values.append(table.shown(cell.value, column: name))
        }
        let quoted = names.map(SQLIdentifier.quote)
        let updates = quoted.dropFirst().map { "\($0) = excluded.\($0)" }
        let conflict = updates.isEmpty ? "DO NOTHING" : "DO UPDATE SET " + updates.joined(separator: ", ")
        try sql.run(
            "INSERT INTO \(SQLIdentifier.quote(table.name))(\(quoted.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", "))) ON CONFLICT(\(quoted[0])) \(conflict)",
            values)
    }

    /// Makes the row show `state` whatever the table holds now: removed when the state says it does not
    /// exist, else written with its current values, and set to their defaults the columns whose values
    /// lost and those the state has no value for (nobody wrote them: a column writers of an earlier
    /// schema did not have, which the row as the table held it may have a value for).
    func reproject(_ state: RowRegister, key: DatabaseValue, table: SyncedTable) throws {
        guard state.isVisible else {
            try delete(key: key, table: table)
            return
        }
        try write(state, key: key, table: table)
        let stale = state.cells.filter { !state.isCurrent($0.value) }.map(\.key)
            + table.wholeRowOrder.dropFirst().filter { state.cells[$0] == nil }
        guard !stale.isEmpty else { return }
        try project(state, key: key, table: table, effect: MergeRule.Effect(
            wasVisible: true, isVisible: true, changedColumns: [], hiddenColumns: Set(stale)))
    }

    /// Whether `cell` is a collaborative text that could not be read here and waits for the server's
    /// snapshot (``/BoutiqueSyncCore/CollaborativeTextValue/awaitingSnapshot``). The table keeps showing
    /// the text it showed: writing the row again for another reason (a pulled edit, a space event, a
    /// repair) would otherwise show NULL, and an app that writes whole rows back would then write it.
    /// A row the table does not hold (written anew) gets the column's default until the snapshot.
    static func awaitsSnapshot(_ cell: CellRegister) -> Bool {
        cell.value == CollaborativeTextValue.awaitingSnapshot
    }

    func delete(key: DatabaseValue, table: SyncedTable) throws {
        try sql.run("DELETE FROM \(SQLIdentifier.quote(table.name)) WHERE \(SQLIdentifier.quote(table.keyColumn)) = ?", [key])
    }
}
