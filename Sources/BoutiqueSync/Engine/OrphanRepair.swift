/// A synced row whose parent row is gone.
struct OrphanRow: Sendable, Hashable {
    let table: String
    let key: DatabaseValue
}

/// Keeps foreign keys intact when merged changes leave a child without its parent (a device deleted
/// the parent while another added a child).
///
/// Inside the pull, such children are taken out of their table (and children a cascade removed are
/// found), so the pull commits; then a local transaction deletes them for good, as changes that sync
/// pushes, so every device and the server end with the same rows: a parent's delete takes its
/// children, as `ON DELETE CASCADE` would have.
enum OrphanRepair {
    /// Removes children that break a foreign key from their tables (inside the pull) and finds synced
    /// children that a cascade removed; returns them.
    static func detach(
        touched: Set<String>, deleted deletedParents: Set<String>, tables: [String: SyncedTable],
        foreignKeys: [String: [SyncedTable]], sql: SQLRunner
    ) throws -> [OrphanRow] {
        guard !foreignKeys.isEmpty else { return [] }
        let children = Set(foreignKeys.values.flatMap { $0.map { $0.name.lowercased() } })
        var orphans: [OrphanRow] = []
        for child in children.sorted() where touched.contains(child) || foreignKeys.keys.contains(where: touched.contains) {
            guard let table = tables[child] else { continue }
            for key in try keysBreakingForeignKeys(in: table, sql: sql) {
                try RowProjector(sql: sql).delete(key: key, table: table)
                orphans.append(OrphanRow(table: child, key: key))
            }
        }
        // Children a cascade took with a deleted parent: their states still say they exist.
        for parent in deletedParents.sorted() {
            for table in foreignKeys[parent] ?? [] {
                let name = table.name.lowercased()
                let missing = try sql.rows(
                    "SELECT key, state FROM boutique_sync_row WHERE tbl = ? AND key NOT IN (SELECT \(SQLIdentifier.quote(table.keyColumn)) FROM \(SQLIdentifier.quote(table.name)))",
                    [.text(name)])
                for row in missing {
                    guard case .blob(let bytes) = row[1], try RowRegister(record: bytes).isVisible else { continue }
                    orphans.append(OrphanRow(table: name, key: row[0]))
                }
            }
        }
        return Array(Set(orphans))
    }

    /// Deletes detached children as local changes: each is written back from its state and deleted in
    /// one local transaction (the log then holds its delete, which push sends). A child whose parent
    /// is back by now stays.
    static func deleteAsLocalChanges(_ orphans: [OrphanRow], tables: [String: SyncedTable], sql: SQLRunner) throws {
        let states = try RowStates(sql: sql)
        let projector = RowProjector(sql: sql)
        var written: [String: SyncedTable] = [:]
        for orphan in orphans {
            guard let table = tables[orphan.table], let state = try states.state(table: orphan.table, key: orphan.key),
                state.isVisible
            else { continue }
            let present = try sql.value(
                "SELECT 1 FROM \(SQLIdentifier.quote(table.name)) WHERE \(SQLIdentifier.quote(table.keyColumn)) = ?", [orphan.key])
            guard present == nil else { continue }
            do {
                try projector.write(state, key: orphan.key, table: table)
                written[orphan.table] = table
            } catch let error as SQLiteError where error.code == .constraint {
                continue
            }
        }
        for table in written.values {
            for key in try keysBreakingForeignKeys(in: table, sql: sql) {
                try sql.run(
                    "DELETE FROM \(SQLIdentifier.quote(table.name)) WHERE \(SQLIdentifier.quote(table.keyColumn)) = ?", [key])
            }
        }
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
