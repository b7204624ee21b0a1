import BoutiqueSQLite

extension ChangeCapture: StatementEndObserver {
    /// Asks the connection to report the end of the schema statement `statement` (or of a `ROLLBACK
    /// TO`, which can take schema changes back), to log its changes where it ran.
    ///
    /// Only inside a managed transaction: outside one, each statement commits on its own and its schema
    /// changes are logged after it (``logCommittedGroups(_:)``).
    func awaitEnd(of statement: OpaquePointer, sql: UnsafePointer<CChar>, isRollback: Bool) {
        guard isInManagedTransaction, mode.writesLog, let connection = attachedConnection else { return }
        runningSchemaStatement = SchemaStatement(
            statement: statement, text: String(cString: sql), alteredTable: StatementKind.alteredTable(in: sql),
            isRollback: isRollback)
        connection.reportStatementEnds(to: self)
    }

    func statementEnded(_ statement: OpaquePointer, succeeded: Bool) {
        guard let connection = attachedConnection else { return }
        connection.reportStatementEnds(to: nil)
        guard let running = runningSchemaStatement, running.statement == statement, isInManagedTransaction else {
            // Another statement ended first: the schema statement was stepped without the connection's
            // API, and its changes are found at commit.
            runningSchemaStatement = nil
            return
        }
        runningSchemaStatement = nil
        isWritingLog = true
        defer { isWritingLog = false }
        // Should the schema not be readable now, the commit finds the changes as a whole.
        try? schemaStatementEnded(running, succeeded: succeeded, on: connection)
    }

    /// Logs what the schema statement `running` changed, after the changes made before it, and reads
    /// the new schema's layouts for the changes made after it.
    private func schemaStatementEnded(_ running: SchemaStatement, succeeded: Bool, on connection: Connection) throws {
        if let index = frames.lastIndex(where: { $0.statement == running.statement }) {
            // The statement's fate is known: a failed one was undone, a finished one stays.
            if !succeeded { discardChanges(from: frames[index].mark) }
            frames.remove(at: index)
        }
        guard let before = liveSchema else { return }
        let version = try SchemaSnapshot.schemaVersion(connection)
        guard version != before.version else { return }
        let after = try SchemaSnapshot.read(connection)
        if !running.isRollback {
            // The changes made so far keep the layouts they were made under, which the statement may
            // have changed (a new or dropped column, a dropped table).
            if layoutsVersion == before.version, layoutsAreComplete {
                for index in pending.indices where pending[index].encoded == nil && pending[index].layout == nil {
                    pending[index].layout = layouts[pending[index].table]
                }
            }
            var changes = before.changes(madeBy: running.text, alteredTable: running.alteredTable, to: after)
            // `CREATE TABLE … AS SELECT` fills its table without the preupdate hook.
            for table in after.tablesCreated(since: before) {
                if let contents = try contentsIfUncaptured(table, among: [], on: connection) {
                    changes.append(contentsOf: contents)
                }
            }
            if !changes.isEmpty {
                touchedTables.insert("sqlite_schema")
                pending.append(contentsOf: changes)
            }
        }
        liveSchema = after
        liveSchemaVersion = version
        try readLayouts(of: after, on: connection)
        // Every schema change so far is in place.
        schemaMark = nil
    }
}
