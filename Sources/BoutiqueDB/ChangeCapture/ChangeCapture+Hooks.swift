import BoutiqueSQLite

extension ChangeCapture {
    /// Keeps one row change the preupdate hook reports, with the images the mode records.
    ///
    /// ```swift
    /// try connection.setPreupdateHook { change in capture.capture(change) }
    /// ```
    func capture(_ change: PreupdateChange) {
        guard !isWritingLog, change.databaseName == "main" else { return }
        let table = change.tableName
        // Most changes of a transaction are to the table of the change before: decided once for it.
        if table != transaction.lastTouchedTable {
            transaction.lastTouchedTable = table
            let isSearchIndex = isSearchIndexStorage(table)
            transaction.lastTableIsLogged = !isSearchIndex && !ChangeLogSchema.isUnlogged(table)
            // Not logged, but a change all the same: a live query on the FTS5 table hears of it.
            if transaction.lastTableIsLogged || isSearchIndex { transaction.touchedTables.insert(table.lowercased()) }
            transaction.lastTableLayout = layoutsVersion == liveSchemaVersion ? layouts[table] : nil
        }
        guard transaction.lastTableIsLogged else {
            noteUnloggedChange(change, to: table)
            return
        }
        guard mode.writesLog else { return }
        // WITHOUT ROWID tables: SQLite's documentation says the hook is for rowid tables, but the
        // SQLite we build on reports their changes too, with rowid 0 (checked; the session extension
        // relies on it). So they are logged like the others, with the row's key as the log's `id`:
        // Turso has no such tables (they are behind an experimental flag), so there is no format to
        // match, and the key is what identifies the row. The key is read from the values, so both
        // images are kept here whatever the mode; the mode's choice is applied when encoding.
        let keyed = change.oldRowID == 0 && change.newRowID == 0
        switch change.kind {
        case .insert:
            if mode.recordsAfter, !keyed, let encoded = encodeNow(change, old: false) {
                transaction.pending.append(CapturedChange(
                    kind: .insert, table: table, rowID: change.newRowID, before: nil, after: nil, encoded: encoded))
                return
            }
            let after = mode.recordsAfter || keyed ? Self.values(of: change, old: false) : nil
            transaction.pending.append(
                CapturedChange(kind: .insert, table: table, rowID: change.newRowID, before: nil, after: after))
        case .delete:
            if mode.recordsBefore, !keyed, let encoded = encodeNow(change, old: true) {
                transaction.pending.append(CapturedChange(
                    kind: .delete, table: table, rowID: change.oldRowID, before: nil, after: nil, encoded: encoded))
                return
            }
            let before = mode.recordsBefore || keyed ? Self.values(of: change, old: true) : nil
            transaction.pending.append(
                CapturedChange(kind: .delete, table: table, rowID: change.oldRowID, before: before, after: nil))
        case .update:
            let before = mode.recordsBefore || mode.recordsUpdates || keyed ? Self.values(of: change, old: true) : nil
            let after = mode.recordsAfter || keyed ? Self.values(of: change, old: false) : nil
            if change.oldRowID != change.newRowID {
                // A new rowid is another row: Turso logs the old one deleted and the new one inserted.
                transaction.pending.append(
                    CapturedChange(kind: .delete, table: table, rowID: change.oldRowID, before: before, after: nil))
                transaction.pending.append(
                    CapturedChange(kind: .insert, table: table, rowID: change.newRowID, before: nil, after: after))
            } else {
                let statement = mode.recordsUpdates ? currentStatementText() : -1
                transaction.pending.append(CapturedChange(
                    kind: .update, table: table, rowID: change.oldRowID, before: before, after: after, statement: statement))
            }
        }
    }

    /// Whether `table` is one of the tables FTS5 keeps for an FTS5 table of the schema the transaction
    /// sees (see ``SearchIndexStorage``). Those an FTS5 table created by the running statement keeps are
    /// not known yet: their changes are left out when the log rows are made.
    private func isSearchIndexStorage(_ table: String) -> Bool {
        guard let storage = (transaction.liveSchema ?? schema)?.searchIndexStorage, !storage.isEmpty else { return false }
        return storage.contains(table.lowercased())
    }

    /// Notes a change the capture did not make to the log or to its `AUTOINCREMENT` counter (a
    /// `sqlite_sequence` row named `turso_cdc`): the log's next id is then read again at commit.
    private func noteUnloggedChange(_ change: PreupdateChange, to table: String) {
        if table == ChangeLogSchema.logTable {
            transaction.logWrittenDirectly = true
        } else if table == "sqlite_sequence" {
            let name = change.kind == .delete ? try? change.oldValue(at: 0) : try? change.newValue(at: 0)
            if name == .text(ChangeLogSchema.logTable) { transaction.logWrittenDirectly = true }
        }
    }

    /// Encodes an insert's or a delete's image into ``CapturedTransaction/capturedBytes`` when the table's
    /// layout is known and the schema has not changed in this transaction; `nil` otherwise (it is encoded
    /// at commit).
    ///
    /// A large insert is then one pass over the rows instead of two, and no row's values are kept.
    private func encodeNow(_ change: PreupdateChange, old: Bool) -> Range<Int>? {
        guard transaction.schemaMark == nil, let layout = transaction.lastTableLayout, !layout.isWithoutRowID else {
            return nil
        }
        if transaction.capturedBytes.capacity == 0 { transaction.capturedBytes.reserveCapacity(1 << 16) }
        let start = transaction.capturedBytes.count
        // Appended in place, through the one stored property: no copy of the buffer.
        guard change.appendRecord(old: old, realAffinity: layout.realAffinity, to: &transaction.capturedBytes) else {
            return nil
        }
        return start..<transaction.capturedBytes.count
    }

    /// The row's stored values before (`old`) or after the change.
    ///
    /// SQLite reports a table with virtual generated columns by storage position and answers
    /// `SQLITE_RANGE` past the stored ones: those are skipped. A value that cannot be read (text that is
    /// not UTF-8) is logged as NULL rather than failing the user's write.
    static func values(of change: PreupdateChange, old: Bool) -> [DatabaseValue] {
        let count = change.columnCount
        var values: [DatabaseValue] = []
        values.reserveCapacity(Int(count))
        for index in 0..<count {
            do {
                values.append(old ? try change.oldValue(at: index) : try change.newValue(at: index))
            } catch where error.code == .range {
                continue
            } catch {
                values.append(.null)
            }
        }
        return values
    }

    /// The index of the running statement's SQL text in ``CapturedTransaction/statementTexts``, read once
    /// per statement.
    private func currentStatementText() -> Int32 {
        guard let last = transaction.frames.indices.last else { return -1 }
        if transaction.frames[last].textIndex >= 0 { return transaction.frames[last].textIndex }
        guard let text = probe.sql(of: transaction.frames[last].statement) else { return -1 }
        if transaction.statementTexts.last == text {
            transaction.frames[last].textIndex = Int32(transaction.statementTexts.count - 1)
        } else {
            transaction.statementTexts.append(text)
            transaction.frames[last].textIndex = Int32(transaction.statementTexts.count - 1)
        }
        return transaction.frames[last].textIndex
    }

    // MARK: Statement boundaries

    /// A statement (not a trigger program) took its first step.
    func statementStarted(_ statement: OpaquePointer, sql: UnsafePointer<CChar>) {
        guard !isWritingLog else { return }
        let kind = StatementKind(text: sql)
        if kind == .triggerProgram { return }
        if kind.mayChangeSchema { transaction.mayHaveChangedSchema = true }
        let progress = probe.progress(of: statement)
        // A foreign-key action's program, traced as the statement whose row change fired it: the
        // statement is still running.
        if let running = transaction.frames.last(where: { $0.statement == statement }),
            progress.isInsideRun(tracedAt: running.progress)
        {
            return
        }
        resolveFinishedStatements(starting: statement)
        switch kind {
        case .savepoint(let name):
            transaction.savepoints.append((name, transaction.pending.count))
        case .release(let name):
            // Releasing a savepoint keeps its changes; it ends it and every newer one.
            if let index = transaction.savepoints.lastIndex(where: { $0.name == name }) {
                transaction.savepoints.removeSubrange(index...)
            }
        case .rollbackTo(let name):
            // Undoes every change since the savepoint, which stays open.
            if let index = transaction.savepoints.lastIndex(where: { $0.name == name }) {
                transaction.discardChanges(from: transaction.savepoints[index].mark)
                transaction.savepoints.removeSubrange((index + 1)...)
            }
            awaitEnd(of: statement, sql: sql, isRollback: true)
        case .schemaChange:
            if transaction.schemaMark == nil { transaction.schemaMark = transaction.pending.count }
            awaitEnd(of: statement, sql: sql, isRollback: false)
            // The table's layout may change with the statement: later changes are encoded at commit.
            transaction.lastTouchedTable = ""
            transaction.lastTableLayout = nil
        case .triggerProgram, .rows, .other:
            break
        }
        if let last = transaction.frames.indices.last, transaction.frames[last].end == nil {
            transaction.frames[last].end = transaction.pending.count
        }
        transaction.frames.append(CapturedTransaction.Frame(
            statement: statement, mark: transaction.pending.count, totalChanges: probe.totalChanges, progress: progress))
    }

    /// Decides, for the statements that started before, whether their captured changes happened: when
    /// the next statement starts, and before the transaction commits.
    ///
    /// SQLite adds a statement's changes to its total only once the statement has succeeded; one that
    /// fails is undone and adds nothing. So captured changes with an unchanged total belong to a
    /// statement that was undone, unless it is still running: a `RETURNING` statement makes all its
    /// changes in its first step and counts them when it is reset, and one still running has
    /// succeeded. A statement that ended may have been finalized, so its pointer is only used after
    /// SQLite's list of live statements shows it is still there. (Statement ends are not traced: that
    /// would read the clock twice per statement, which bulk inserts feel.)
    func resolveFinishedStatements(starting next: OpaquePointer? = nil) {
        guard !transaction.frames.isEmpty else { return }
        let total = probe.totalChanges
        while let frame = transaction.frames.popLast() {
            let end = min(frame.end ?? transaction.pending.count, transaction.pending.count)
            guard end > frame.mark, total == frame.totalChanges else { continue }
            // The statement starting now cannot still be running its previous run.
            let stillRunning =
                frame.statement != next && probe.isPrepared(frame.statement) && probe.isRunning(frame.statement)
            if !stillRunning { transaction.discardChanges(in: frame.mark..<end) }
        }
    }

    // MARK: Commits outside a managed transaction

    /// SQLite is about to commit. Outside `write` (in `writeWithoutTransaction`, or after a closure
    /// ended its transaction itself) no `willCommit` follows, so the changes are set aside to be logged
    /// once the closure returns.
    func transactionWillCommit() {
        guard !isWritingLog, !(transaction.isInManagedTransaction && transaction.expectsManagedCommit) else { return }
        resolveFinishedStatements()
        guard !transaction.pending.isEmpty || !transaction.touchedTables.isEmpty else { return }
        committedGroups.append(CommittedGroup(
            changes: transaction.pending, tables: transaction.touchedTables, statementTexts: transaction.statementTexts,
            bytes: transaction.capturedBytes))
        // The schema statements it ran are logged with it: their schema is the committed one now.
        if let liveSchema = transaction.liveSchema, liveSchema.version != schema?.version { schema = liveSchema }
        transaction.pending.removeAll()
        transaction.capturedBytes.removeAll()
        transaction.touchedTables.removeAll()
        transaction.lastTouchedTable = ""
        transaction.lastTableIsLogged = false
        transaction.statementTexts.removeAll()
        transaction.savepoints.removeAll()
        for index in transaction.frames.indices { transaction.frames[index].textIndex = -1 }
    }

    /// SQLite rolled a transaction back: nothing captured since it began happened.
    func transactionDidRollBack() {
        guard !isWritingLog else { return }
        if let schema, liveSchemaVersion != schema.version {
            // The schema is back to the committed one; the layouts read since are not its.
            transaction.liveSchema = schema
            liveSchemaVersion = schema.version
            layoutsAreComplete = false
            layoutsVersion = -1
        }
        transaction.runningSchemaStatement = nil
        transaction.frames.removeAll()
        transaction.pending.removeAll()
        transaction.touchedTables.removeAll()
        transaction.lastTouchedTable = ""
        transaction.lastTableIsLogged = false
        transaction.savepoints.removeAll()
    }
}
