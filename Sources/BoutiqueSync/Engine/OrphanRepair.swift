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
            for violation in try sql.rows("SELECT rowid FROM pragma_foreign_key_check(?)", [.text(table.name)]) {
                guard case .integer(let rowID) = violation[0],
                    let key = try sql.value(
                        "SELECT \(SQLIdentifier.quote(table.keyColumn)) FROM \(SQLIdentifier.quote(table.name)) WHERE rowid = ?",
                        [.integer(rowID)])
                else { continue }
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
            for violation in try sql.rows("SELECT rowid FROM pragma_foreign_key_check(?)", [.text(table.name)]) {
                guard case .integer(let rowID) = violation[0] else { continue }
                try sql.run("DELETE FROM \(SQLIdentifier.quote(table.name)) WHERE rowid = ?", [.integer(rowID)])
            }
        }
    }
}
