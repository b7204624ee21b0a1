import BoutiqueSQLite

extension ChangeCapture: StatementEndObserver {
    /// Waits for the end of the schema statement `statement` (or of a `ROLLBACK TO`, which can take
    /// schema changes back), to log its changes where it ran.
    ///
    /// Outside a managed transaction (`writeWithoutTransaction`), a schema statement that commits on its
    /// own is logged as a transaction of its own, after the closure (``logCommittedGroups(_:)``).
    func awaitEnd(of statement: OpaquePointer, sql: UnsafePointer<CChar>, isRollback: Bool) {
        guard mode.writesLog else { return }
        transaction.runningSchemaStatement = CapturedTransaction.SchemaStatement(
            statement: statement, text: String(cString: sql), alteredTable: StatementKind.alteredTable(in: sql),
            isRollback: isRollback)
    }

    /// A statement stepped through the connection's API ended: whether its captured changes happened is
    /// known now, and a schema statement's changes are logged.
    ///
    /// A statement that succeeded keeps its changes. One that failed was undone, unless its conflict
    /// clause is `FAIL`, which keeps what the statement changed before the failing row: SQLite then
    /// reports the statement's changes (`sqlite3_changes`), and it reports none for an undone one. (The
    /// running total cannot tell: a trigger's statements add to it as they finish, before the statement
    /// that fired them fails.)
    func statementEnded(_ statement: OpaquePointer, succeeded: Bool) {
        guard !isWritingLog else { return }
        // Most often the statement that ended is the last one that started.
        let last = transaction.frames.indices.last
        if let index = last.flatMap({ transaction.frames[$0].statement == statement ? $0 : nil })
            ?? transaction.frames.lastIndex(where: { $0.statement == statement })
        {
            if !succeeded, probe.lastStatementChanges == 0 {
                let frame = transaction.frames[index]
                transaction.discardChanges(in: frame.mark..<(frame.end ?? transaction.pending.count))
            }
            transaction.frames.remove(at: index)
        }
        guard let running = transaction.runningSchemaStatement, running.statement == statement else { return }
        transaction.runningSchemaStatement = nil
        guard let connection = attachedConnection else { return }
        isWritingLog = true
        defer { isWritingLog = false }
        // Should the schema not be readable now, the commit finds the changes as a whole.
        try? schemaStatementEnded(running, on: connection)
    }

    /// Logs what the schema statement `running` changed, after the changes made before it, and reads
    /// the new schema's layouts for the changes made after it.
    private func schemaStatementEnded(_ running: CapturedTransaction.SchemaStatement, on connection: Connection) throws {
        // A statement that committed on its own (in `writeWithoutTransaction`, or after SQLite rolled
        // the closure's transaction back) is logged as a transaction of its own; one inside a
        // transaction, managed or begun by the closure, goes with the transaction's other changes.
        let inTransaction = !connection.isAutocommit
        guard let before = inTransaction ? (transaction.liveSchema ?? schema) : schema else { return }
        let version = try SchemaSnapshot.schemaVersion(connection)
        guard version != before.version else { return }
        let after = try SchemaSnapshot.read(connection)
        if !running.isRollback {
            keepLayouts(of: before)
            var changes = before.changes(madeBy: running.text, alteredTable: running.alteredTable, to: after)
            // `CREATE TABLE … AS SELECT` fills its table without the preupdate hook. A virtual table
            // (root page 0) is never made that way: its rows are its module's (an FTS5 index over a
            // content table reads the content's rows, which are logged as that table's).
            var tables: Set<String> = ["sqlite_schema"]
            for change in changes
            where change.kind == .insert && change.after?.first == .text("table") && change.after?[3] != .integer(0) {
                guard case .text(let table)? = change.after?[1] else { continue }
                if let contents = try contentsIfUncaptured(table, among: [], on: connection) {
                    changes.append(contentsOf: contents)
                    tables.insert(table.lowercased())
                }
            }
            if !changes.isEmpty {
                if inTransaction {
                    transaction.touchedTables.formUnion(tables)
                    transaction.pending.append(contentsOf: changes)
                } else {
                    committedGroups.append(CommittedGroup(changes: changes, tables: tables, statementTexts: [], bytes: []))
                }
            }
        }
        if !inTransaction { schema = after }
        if inTransaction || transaction.isInManagedTransaction {
            transaction.liveSchema = after
            liveSchemaVersion = version
        }
        // Every schema change so far is in place.
        if inTransaction { transaction.schemaMark = nil }
        try readLayouts(of: after, on: connection)
    }

    /// Gives the changes captured so far the layouts of `schema`, the one they were made under, which
    /// a schema statement has just changed (a new or dropped column, a dropped table).
    private func keepLayouts(of schema: SchemaSnapshot) {
        guard layoutsVersion == schema.version, layoutsAreComplete else { return }
        func keep(_ changes: inout [CapturedChange]) {
            for index in changes.indices where changes[index].encoded == nil && changes[index].layout == nil {
                changes[index].layout = layouts[changes[index].table]
            }
        }
        keep(&transaction.pending)
        for index in committedGroups.indices { keep(&committedGroups[index].changes) }
    }
}
