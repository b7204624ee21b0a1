/// Keeps foreign keys intact when merged changes leave a row pointing at a parent deleted on another
/// device (a device deleted the parent while another added a child, or moved a row into it).
///
/// Inside the pull, such rows are found (rows that break a foreign key, rows a cascade removed, rows a
/// `SET NULL` or `SET DEFAULT` action changed) and each is resolved (``OrphanRow/resolve(_:key:table:own:sql:)``):
/// a move loses and the row shows its previous parent, or the key's declared action applies. The table
/// shows the resolution when the pull commits; then a local transaction writes it as changes that sync
/// pushes, so every device and the server end with the same rows, and this device's work it undid is
/// reported (``SyncLoss``) once that transaction commits.
enum OrphanRepair {
    /// Finds the rows the merge left pointing at deleted parents and makes their tables show how they
    /// are resolved (inside the pull); returns them.
    ///
    /// A row whose parent this device holds no state of at all waits for it (``WaitingRows``) instead,
    /// on a server with rules (its user may not see the parent) or when `parkingUnseenParents` says so
    /// (rows the server sent back with a refusal, whose parents the device may not have pulled yet).
    static func detach(
        touched: Set<String>, deleted deletedParents: Set<String>, deletedKeys: [String: [DatabaseValue]] = [:],
        tables: [String: SyncedTable], foreignKeys: [String: [SyncedTable]], parkingUnseenParents: Bool = false, sql: SQLRunner
    ) throws -> [OrphanRow] {
        guard !foreignKeys.isEmpty else { return [] }
        let states = try RowStates(sql: sql)
        var candidates: [(table: SyncedTable, key: DatabaseValue, state: RowRegister?)] = []
        let children = Set(foreignKeys.values.flatMap { $0.map { $0.name.lowercased() } })
        for child in children.sorted() where touched.contains(child) || foreignKeys.keys.contains(where: touched.contains) {
            guard let table = tables[child] else { continue }
            for key in try keysBreakingForeignKeys(in: table, sql: sql) { candidates.append((table, key, nil)) }
        }
        for parent in deletedParents.sorted() {
            for table in foreignKeys[parent] ?? [] {
                // Children a cascade took with a deleted parent: their states still say they exist.
                for (key, state) in try RowStates(sql: sql).statesWithoutRows(in: table) where state.isVisible {
                    candidates.append((table, key, state))
                }
                candidates += try changedByDeleteActions(in: table, parent: parent, deletedKeys: deletedKeys[parent] ?? [], sql: sql)
            }
        }
        let own = OwnWrites(sql: sql)
        let projector = RowProjector(sql: sql)
        // On a server with rules, a parent this device holds no state of is one its user may not see
        // (yet): the child waits for it instead of being resolved as a child of a deleted parent.
        let waiting = try parkingUnseenParents || SpaceLabels(sql: sql).any() ? WaitingRows(sql: sql) : nil
        var seen: Set<SnapshotIdentity> = []
        var orphans: [OrphanRow] = []
        for candidate in candidates {
            let name = candidate.table.lowercasedName
            guard seen.insert(SnapshotIdentity(table: name, key: candidate.key)).inserted else { continue }
            if let waiting, let state = try candidate.state ?? states.state(table: name, key: candidate.key), state.isVisible,
                let parent = try unseenParent(of: state, table: candidate.table, states: states, sql: sql)
            {
                try waiting.park(table: candidate.table, key: candidate.key, parentTable: parent.table, parentKey: parent.key)
                continue
            }
            guard let state = try candidate.state ?? states.state(table: name, key: candidate.key), state.isVisible,
                let orphan = try OrphanRow.resolve(state, key: candidate.key, table: candidate.table, own: own, sql: sql)
            else {
                // Nothing of the row's state breaks a key, or the row has no visible state: the table
                // shows the state.
                if let state = try candidate.state ?? states.state(table: name, key: candidate.key), state.isVisible {
                    try projector.reproject(state, key: candidate.key, table: candidate.table)
                } else if candidate.state == nil {
                    try projector.delete(key: candidate.key, table: candidate.table)
                }
                continue
            }
            try show(orphan, state: state, table: candidate.table, sql: sql)
            orphans.append(orphan)
        }
        // A row still breaking a key (its state lacks the column the table holds) leaves the table, and
        // is deleted for good as a local change, so the pull can commit.
        var checked: Set<ObjectIdentifier> = []
        for candidate in candidates where checked.insert(ObjectIdentifier(candidate.table)).inserted {
            for key in try keysBreakingForeignKeys(in: candidate.table, sql: sql) {
                try projector.delete(key: key, table: candidate.table)
                orphans.append(OrphanRow(table: candidate.table.lowercasedName, key: key, resolution: .remove, losses: []))
            }
        }
        return orphans
    }

    /// The first parent the row's foreign keys name that is neither in its table nor known to sync.
    private static func unseenParent(
        of state: RowRegister, table: SyncedTable, states: RowStates, sql: SQLRunner
    ) throws -> (table: String, key: DatabaseValue)? {
        for foreignKey in table.foreignKeys {
            guard let column = foreignKey.column, let cell = state.cells[column.lowercased()], state.isCurrent(cell),
                !cell.value.isNull, try !foreignKey.parentExists(cell.value, sql: sql),
                try states.state(table: foreignKey.parent.lowercased(), key: cell.value) == nil
            else { continue }
            return (foreignKey.parent, cell.value)
        }
        return nil
    }

    /// Children of `parent` whose `SET NULL` or `SET DEFAULT` action ran when the pull deleted one of
    /// `deletedKeys`: the table shows the action's value, the state still the deleted parent.
    private static func changedByDeleteActions(
        in table: SyncedTable, parent: String, deletedKeys: [DatabaseValue], sql: SQLRunner
    ) throws -> [(table: SyncedTable, key: DatabaseValue, state: RowRegister?)] {
        guard !deletedKeys.isEmpty else { return [] }
        let deleted = Set(deletedKeys)
        var found: [(table: SyncedTable, key: DatabaseValue, state: RowRegister?)] = []
        for foreignKey in table.foreignKeys where foreignKey.parent.lowercased() == parent && foreignKey.onDelete != .remove {
            guard let column = foreignKey.column, let position = table.position(of: column) else { continue }
            let value = foreignKey.onDelete == .setNull
                ? "NULL" : table.shapes[position].defaultSQL.map { "(\($0))" } ?? "NULL"
            for (key, state) in try RowStates(sql: sql).states(in: table, where: column, is: value) {
                guard let cell = state.cells[column.lowercased()], state.isCurrent(cell), deleted.contains(cell.value) else { continue }
                found.append((table, key, state))
            }
        }
        return found
    }

    /// Makes the table show `orphan` resolved, inside the pull: the row gone, or written from its state
    /// with the resolved columns (a row the table refuses so goes).
    private static func show(_ orphan: OrphanRow, state: RowRegister, table: SyncedTable, sql: SQLRunner) throws {
        let projector = RowProjector(sql: sql)
        guard case .set(let values) = orphan.resolution else {
            try projector.delete(key: orphan.key, table: table)
            return
        }
        do {
            try projector.write(state, key: orphan.key, table: table)
            try assign(values, key: orphan.key, table: table, sql: sql)
        } catch let error as SQLiteError where error.code == .constraint {
            try projector.delete(key: orphan.key, table: table)
        }
    }

    /// `UPDATE`s the row's columns to `values`, every value bound.
    static func assign(_ values: [String: DatabaseValue], key: DatabaseValue, table: SyncedTable, sql: SQLRunner) throws {
        let columns = values.keys.sorted()
        try sql.run(
            "UPDATE \(SQLIdentifier.quote(table.name)) SET \(columns.map { SQLIdentifier.quote($0) + " = ?" }.joined(separator: ", ")) WHERE \(SQLIdentifier.quote(table.keyColumn)) = ?",
            columns.compactMap { values[$0] } + [key])
    }

    /// The keys of `table`'s rows whose foreign keys find no parent row.
    ///
    /// `pragma_foreign_key_check` names a rowid table's rows by rowid; a `WITHOUT ROWID` table's it
    /// names by the foreign key alone (the rowid is NULL), so those rows are found by querying each
    /// such key: a row breaks it when all its columns are set and no parent row matches them. Every
    /// name in the SQL comes from the schema, quoted.
    static func keysBreakingForeignKeys(in table: SyncedTable, sql: SQLRunner) throws -> [DatabaseValue] {
        let quotedTable = SQLIdentifier.quote(table.name)
        let quotedKey = SQLIdentifier.quote(table.keyColumn)
        var keys: [DatabaseValue] = []
        var brokenWithoutRowID: Set<Int64> = []
        for violation in try sql.rows("SELECT rowid, fkid FROM pragma_foreign_key_check(?)", [.text(table.name)]) {
            switch (violation[0], violation[1]) {
            case (.integer(let rowID), _):
                if let key = try sql.value("SELECT \(quotedKey) FROM \(quotedTable) WHERE rowid = ?", [.integer(rowID)]) {
                    keys.append(key)
                }
            case (.null, .integer(let foreignKey)):
                brokenWithoutRowID.insert(foreignKey)
            default:
                continue
            }
        }
        for foreignKey in brokenWithoutRowID.sorted() {
            let columns = try sql.rows(
                #"SELECT "table", "from", "to" FROM pragma_foreign_key_list(?) WHERE id = ? ORDER BY seq"#,
                [.text(table.name), .integer(foreignKey)])
            guard case .text(let parent)? = columns.first?[0] else { continue }
            let from = columns.compactMap { $0[1].textValue }
            var to = columns.compactMap { $0[2].textValue }
            if to.count != from.count {
                // `REFERENCES parent` without columns: the parent's primary key, in its order.
                to = try sql.rows("SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", [.text(parent)])
                    .compactMap { $0.first?.textValue }
            }
            guard !from.isEmpty, to.count == from.count else { continue }
            let set = from.map { "child.\(SQLIdentifier.quote($0)) IS NOT NULL" }.joined(separator: " AND ")
            let matches = zip(from, to).map { "parent.\(SQLIdentifier.quote($1)) = child.\(SQLIdentifier.quote($0))" }
                .joined(separator: " AND ")
            keys += try sql.rows(
                """
                SELECT child.\(quotedKey) FROM \(quotedTable) AS child WHERE \(set)
                AND NOT EXISTS (SELECT 1 FROM \(SQLIdentifier.quote(parent)) AS parent WHERE \(matches))
                """
            ).compactMap(\.first)
        }
        return keys
    }
}
