import BoutiqueSQLite

/// The rows of `sqlite_schema` at one moment, to find the schema changes a transaction made.
///
/// ```swift
/// let before = try SchemaSnapshot.read(connection)
/// try connection.execute("CREATE TABLE tag(name TEXT)")
/// let changes = before.changes(to: try SchemaSnapshot.read(connection))   // one insert of sqlite_schema
/// ```
///
/// SQLite's preupdate hook does not report changes of `sqlite_schema`, so a transaction that changed the
/// schema (its `schema_version` moved) is compared row by row with the schema at its start. Rows are
/// matched by object name, not rowid: `VACUUM` renumbers them and moves root pages without changing
/// the schema, and that is not a change worth logging.
struct SchemaSnapshot {
    struct Object: Equatable {
        var rowID: Int64
        /// `type`, `name`, `tbl_name`, `rootpage`, `sql`: the table's columns, in its order.
        var values: [DatabaseValue]

        /// Everything but the root page, which moves without the schema changing.
        var definition: [DatabaseValue] {
            values.enumerated().filter { $0.offset != 3 }.map(\.element)
        }
    }

    /// The `schema_version` the rows were read at.
    var version: Int64
    /// The logged objects, by lowercased name.
    var objects: [String: Object]
    /// The lowercased names of the tables FTS5 keeps for its tables (see ``SearchIndexStorage``).
    var searchIndexStorage: Set<String> = []

    static func read(_ connection: Connection) throws(SQLiteError) -> SchemaSnapshot {
        let version = try schemaVersion(connection)
        let rows = try connection.fetchRows("SELECT rowid, type, name, tbl_name, rootpage, sql FROM main.sqlite_schema").rows
        let storage = SearchIndexStorage.tables(amongSchemaRows: rows.map { Array($0.dropFirst()) })
        var objects: [String: Object] = [:]
        for row in rows {
            guard row.count == 6, case .integer(let rowID) = row[0], case .text(let name) = row[2] else { continue }
            guard !ChangeLogSchema.isUnloggedSchemaObject(named: name) else { continue }
            // FTS5 creates its storage tables itself when its table is created: their schema rows are
            // no change a reader could replay.
            guard row[1] != .text("table") || !storage.contains(name.lowercased()) else { continue }
            objects[name.lowercased()] = Object(rowID: rowID, values: Array(row[1...]))
        }
        return SchemaSnapshot(version: version, objects: objects, searchIndexStorage: storage)
    }

    /// The main database's `PRAGMA schema_version`, which SQLite bumps on every schema change.
    static func schemaVersion(_ connection: Connection) throws(SQLiteError) -> Int64 {
        guard case .integer(let version)? = try connection.fetchValue("PRAGMA main.schema_version") else { return 0 }
        return version
    }

    /// The `sqlite_schema` changes from this snapshot to `later`: deletions, then updates and insertions
    /// in rowid order.
    ///
    /// An object whose type changed, or that was dropped and re-created under another rowid, is a delete
    /// and an insert; one whose definition changed in place (`ALTER TABLE … ADD COLUMN`) is an update
    /// flagging the columns that changed.
    func changes(to later: SchemaSnapshot) -> [CapturedChange] {
        var deletions: [CapturedChange] = []
        var others: [CapturedChange] = []
        for (name, old) in objects {
            guard let new = later.objects[name], new.rowID == old.rowID, new.values[0] == old.values[0] else {
                deletions.append(Self.change(.delete, rowID: old.rowID, before: old.values, after: nil))
                continue
            }
            guard new.definition != old.definition else { continue }
            var change = Self.change(.update, rowID: new.rowID, before: old.values, after: new.values)
            change.assigned = zip(old.values, new.values).map { $0 != $1 }
            others.append(change)
        }
        for (name, new) in later.objects {
            if let old = objects[name], old.rowID == new.rowID, old.values[0] == new.values[0] { continue }
            others.append(Self.change(.insert, rowID: new.rowID, before: nil, after: new.values))
        }
        deletions.sort { $0.rowID < $1.rowID }
        others.sort { $0.rowID < $1.rowID }
        return deletions + others
    }

    /// The `sqlite_schema` changes one statement made, from this snapshot to `later`: deletions, then
    /// updates (the altered table's first), then insertions, each in rowid order.
    ///
    /// ```swift
    /// let changes = before.changes(madeBy: "ALTER TABLE note RENAME TO memo", alteredTable: "note", to: after)
    /// // one update of the table's row, its `updates` record carrying the ALTER statement as its `sql`
    /// ```
    ///
    /// Within one statement an object keeps its rowid, so rows are matched by rowid: a renamed table is
    /// an update, not a drop and a create (which a reader replaying the log would take for the loss of
    /// its rows). As in Turso's log, the altered table's update carries the `ALTER TABLE` statement in
    /// its `updates` record as the new `sql`, so that a reader can run it: it rewrites the rows (`DROP
    /// COLUMN`) and the dependent objects (indexes, views and triggers naming a renamed column or table)
    /// as it did here. Those dependents are logged as updates flagging their new definition.
    func changes(madeBy statementText: String, alteredTable: String?, to later: SchemaSnapshot) -> [CapturedChange] {
        let old = Dictionary(objects.values.map { ($0.rowID, $0) }, uniquingKeysWith: { first, _ in first })
        let new = Dictionary(later.objects.values.map { ($0.rowID, $0) }, uniquingKeysWith: { first, _ in first })
        var deletions: [CapturedChange] = []
        var updates: [(isAltered: Bool, change: CapturedChange)] = []
        var insertions: [CapturedChange] = []
        for (rowID, before) in old {
            guard let after = new[rowID], after.values[0] == before.values[0] else {
                deletions.append(Self.change(.delete, rowID: rowID, before: before.values, after: nil))
                continue
            }
            guard after.definition != before.definition else { continue }
            var change = Self.change(.update, rowID: rowID, before: before.values, after: after.values)
            var assigned = zip(before.values, after.values).map { $0 != $1 }
            var isAltered = false
            if let alteredTable, before.values[0] == .text("table"), case .text(let name) = before.values[1],
                name.lowercased() == alteredTable
            {
                isAltered = true
                var updated = after.values
                updated[4] = .text(statementText)
                assigned[4] = true
                change.updatedValues = updated
            }
            change.assigned = assigned
            updates.append((isAltered, change))
        }
        for (rowID, after) in new where old[rowID].map({ $0.values[0] != after.values[0] }) ?? true {
            insertions.append(Self.change(.insert, rowID: rowID, before: nil, after: after.values))
        }
        deletions.sort { $0.rowID < $1.rowID }
        insertions.sort { $0.rowID < $1.rowID }
        updates.sort { ($0.isAltered ? 0 : 1, $0.change.rowID) < ($1.isAltered ? 0 : 1, $1.change.rowID) }
        return deletions + updates.map(\.change) + insertions
    }

    /// The names of the tables this snapshot has and `earlier` had not; virtual tables (root page 0),
    /// whose rows are their module's, are left out.
    func tablesCreated(since earlier: SchemaSnapshot) -> [String] {
        objects.compactMap { name, object in
            guard object.values.first == .text("table"), object.values[3] != .integer(0) else { return nil }
            if let old = earlier.objects[name], old.rowID == object.rowID, old.values[0] == object.values[0] { return nil }
            guard case .text(let tableName) = object.values[1] else { return nil }
            return tableName
        }
    }

    private static func change(
        _ kind: RowChangeKind, rowID: Int64, before: [DatabaseValue]?, after: [DatabaseValue]?
    ) -> CapturedChange {
        CapturedChange(kind: kind, table: "sqlite_schema", rowID: rowID, before: before, after: after)
    }
}
