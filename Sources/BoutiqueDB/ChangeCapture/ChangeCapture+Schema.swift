import BoutiqueSQLite

extension ChangeCapture {
    /// `changes` with the transaction's schema changes placed where its first schema statement ran, and
    /// the rows of tables it created that the preupdate hook did not see.
    ///
    /// ```swift
    /// let all = try withSchemaChanges(pending, from: schemaAtBegin, to: try SchemaSnapshot.read(connection), on: connection)
    /// ```
    ///
    /// `sqlite_schema` changes are found by comparison at commit, so their exact place among the row
    /// changes is not known; the first statement that could change the schema is the best place (a
    /// migration creates its tables before it fills them). `CREATE TABLE … AS SELECT` writes its rows
    /// without calling the preupdate hook: when a table created in the transaction holds other rows than
    /// the captured ones add up to, its captured changes are replaced by inserts of its contents.
    func withSchemaChanges(
        _ changes: [CapturedChange], from before: SchemaSnapshot, to after: SchemaSnapshot, on connection: Connection
    ) throws -> [CapturedChange] {
        var rowChanges = changes
        var schemaChanges = before.changes(to: after)
        for table in after.tablesCreated(since: before) {
            guard let contents = try contentsIfUncaptured(table, among: rowChanges, on: connection) else { continue }
            rowChanges.removeAll { $0.table.lowercased() == table.lowercased() }
            schemaChanges.append(contentsOf: contents)
        }
        guard !schemaChanges.isEmpty else { return rowChanges }
        let mark = min(transaction.schemaMark ?? 0, rowChanges.count)
        var result = rowChanges
        result.insert(contentsOf: schemaChanges, at: mark)
        return result
    }

    /// Inserts for every row of the new table `table`, or `nil` when the captured changes account for
    /// its rows.
    func contentsIfUncaptured(
        _ table: String, among changes: [CapturedChange], on connection: Connection
    ) throws -> [CapturedChange]? {
        var net = 0
        let lowered = table.lowercased()
        for change in changes where change.table.lowercased() == lowered {
            switch change.kind {
            case .insert: net += 1
            case .delete: net -= 1
            case .update: break
            }
        }
        let quoted = SQLIdentifier.quote(table)
        guard case .integer(let count)? = try connection.fetchValue("SELECT count(*) FROM main.\(quoted)"),
            count != Int64(net)
        else { return nil }
        guard let layout = try TableLayout.read(table, from: connection) else { return nil }
        let columns = layout.storedColumnNames.map(SQLIdentifier.quote).joined(separator: ", ")
        let selection = layout.isWithoutRowID ? "0, \(columns)" : "rowid, \(columns)"
        let rows = try connection.fetchRows("SELECT \(selection) FROM main.\(quoted)").rows
        transaction.touchedTables.insert(lowered)
        return rows.map { row in
            let rowID: Int64 = if case .integer(let value) = row.first { value } else { 0 }
            return CapturedChange(kind: .insert, table: table, rowID: rowID, before: nil, after: Array(row.dropFirst()))
        }
    }
}
