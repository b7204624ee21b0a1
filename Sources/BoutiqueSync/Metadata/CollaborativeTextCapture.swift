/// Turns the whole strings an app writes to its collaborative text columns into text operations, once
/// per local transaction, and keeps them (`boutique_sync_text_ops`) until the server acknowledges the
/// transaction.
///
/// Whatever wrote the value (the query builder, raw SQL, another process), the change log holds the
/// transaction's new value; folding the transaction diffs it against the column's collaborative text
/// (kept in the row's merge state, never in the app's table) as this replica. The push then carries
/// the operations, the same bytes at every retry, so a retried push keeps its digest.
enum CollaborativeTextCapture {
    /// Replaces the plain values `change` gives `table`'s collaborative columns by the operations
    /// that make the row's text (in `state`, before the change) show them, and records those for
    /// `transaction`. The operations' writer is the change's stamp's: the writing session of this
    /// file, which a copy or a restored backup of the file never reuses, so two histories of one file
    /// never write different characters under the same ids. Returns whether a value was not already the text it stands for (NULL, a number):
    /// the table is then made to show the text.
    ///
    /// The row's text in `state` becomes the edited one (its stamp unchanged: merging the change
    /// stamps it), so that merging the change finds its operations applied already.
    ///
    /// A value that cannot be diffed (the row's stored text is damaged, or the new value is past what
    /// a text holds) is left out for that row and column only: no operations are recorded for it but
    /// an empty list (so that the push carries nothing for it, the same at every retry), the row's
    /// state keeps its text, `unmergeable` reports the write, and the table is made to show the text
    /// again. A damaged stored text also asks every server for a snapshot, whose sound state of the
    /// column replaces it (see ``/BoutiqueSyncCore/CollaborativeTextValue/merge(_:_:)``).
    static func capture(
        _ change: inout SyncChange, table: SyncedTable, transaction: Int64, state: inout RowRegister, unmergeable: UnmergeableTextEdits,
        sql: SQLRunner
    ) throws -> Bool {
        var reshow = false
        var leftOut: [String] = []
        var unreadable: [String] = []
        for index in change.columns.indices where table.collaborativeColumns.contains(change.columns[index].name) {
            let column = change.columns[index]
            // Recorded when the transaction was folded before (the fold runs again after a refusal).
            let earlier = try recorded(transaction: transaction, table: change.table, key: change.key, column: column.name, sql)
            // Already operations: a slice of a transaction in parts, netted after its fold recorded them.
            // (A value the app wrote that merely looks like them is diffed as any other: a blob is no text.)
            let isSlice = CollaborativeTextValue.isEncoded(column.value) && earlier == column.value
            let stored: CollaborativeText
            do {
                stored = try state.cells[column.name].map { try CollaborativeTextValue.text(of: $0.value, stamp: $0.stamp) }
                    ?? CollaborativeText()
            } catch {
                // Left out when first folded, and reported then; a snapshot was asked for then too.
                if earlier != nil {
                    unreadable.append(column.name)
                    continue
                }
                // Every server's snapshot brings the column's sound state back (a pull would bring
                // only later operations, which need it). Until then the table keeps the written
                // value: showing the damaged text (as NULL) would be a write of its own, left out again.
                try sql.run("UPDATE boutique_sync_server SET bootstrapped = 0")
                try leaveOut(column, of: change, transaction: transaction, error: error, unmergeable: unmergeable, sql: sql)
                unreadable.append(column.name)
                continue
            }
            if isSlice {
                // Merged as recorded when they apply whole. Operations that would wait (built on a
                // refused write's characters, now withdrawn) are left out and reported: the string
                // the transaction wrote is not at hand to diff again.
                if Self.replaying(column.value, onto: stored) == nil {
                    try leaveOut(
                        column, of: change, transaction: transaction,
                        error: BoutiqueError.invalidArgument("the edit builds on text a refused write made"), unmergeable: unmergeable, sql: sql)
                    leftOut.append(column.name)
                }
                continue
            }
            var text = stored
            let new = CollaborativeTextValue.plainText(column.value)
            if column.value != .text(new) { reshow = true }
            // Folded before (the fold runs again after a refusal): what was recorded then is what the
            // server has or will have, so it is applied again, never diffed again. A new diff against a
            // text that already holds this and later edits would undo them and type them again under
            // new ids the server never gets, and every later edit by this writer would wait for those
            // ids there. Only operations that no longer apply whole (they built on a refused write's
            // characters, now withdrawn) give way to a new diff.
            if let earlier, let replayed = Self.replaying(earlier, onto: text) {
                if replayed.operations.isEmpty, replayed.text.text != new {
                    // Left out when first folded (it could not be merged, and was reported then).
                    leftOut.append(column.name)
                    continue
                }
                text = replayed.text
                if text.text != new { reshow = true }
                if let cell = state.cells[column.name] {
                    state.cells[column.name] = CellRegister(value: CollaborativeTextValue.state(text).value, stamp: cell.stamp)
                }
                change.columns[index].value = earlier
                continue
            }
            let operations: [TextOperation]
            do {
                operations = try text.replaceText(with: new, by: change.stamp.replica)
            } catch {
                try leaveOut(column, of: change, transaction: transaction, error: error, unmergeable: unmergeable, sql: sql)
                leftOut.append(column.name)
                continue
            }
            if let cell = state.cells[column.name] {
                state.cells[column.name] = CellRegister(value: CollaborativeTextValue.state(text).value, stamp: cell.stamp)
            }
            let value = CollaborativeTextValue.operations(operations).value
            try record(value, transaction: transaction, table: change.table, key: change.key, column: column.name, sql)
            change.columns[index].value = value
        }
        // The row's state keeps the columns left out as they were; the table shows the readable ones again.
        change.columns.removeAll { leftOut.contains($0.name) || unreadable.contains($0.name) }
        if !leftOut.isEmpty { reshow = true }
        return reshow
    }

    /// `text` with the recorded operations `value` applied, when they all apply (none waits for a
    /// character or an earlier operation the text lacks); `nil` otherwise, or when `value` does not
    /// read as operations.
    private static func replaying(_ value: DatabaseValue, onto text: CollaborativeText) -> (text: CollaborativeText, operations: [TextOperation])? {
        guard case .operations(let operations)? = try? CollaborativeTextValue(value) else { return nil }
        var replayed = text
        let waiting = replayed.waitingCount
        guard (try? replayed.apply(operations)) != nil, replayed.waitingCount == waiting else { return nil }
        return (replayed, operations)
    }

    /// Records that `column`'s new value was not merged: no operations stand for it.
    private static func leaveOut(
        _ column: SyncColumnValue, of change: SyncChange, transaction: Int64, error: any Error, unmergeable: UnmergeableTextEdits,
        sql: SQLRunner
    ) throws {
        try record(CollaborativeTextValue.operations([]).value, transaction: transaction, table: change.table, key: change.key,
                   column: column.name, sql)
        unmergeable.note(transaction: transaction, table: change.table, key: change.key, column: column.name, value: column.value, error: error)
    }

    /// The operations recorded for one row's column in `transaction`, looked up by the table's key.
    private static func recorded(
        transaction: Int64, table: String, key: DatabaseValue, column: String, _ sql: SQLRunner
    ) throws -> DatabaseValue? {
        let statement = try sql.connection.cachedStatement(
            "SELECT operations FROM boutique_sync_text_ops WHERE txn = ? AND tbl = ? AND key = ? AND col = ?")
        defer { try? statement.reset() }
        try statement.bind(transaction, at: 1)
        try statement.bind(table, at: 2)
        try statement.bind(key, at: 3)
        try statement.bind(column, at: 4)
        // (Not `step() ? value : nil`: `nil` there would be `DatabaseValue.null`, a row found.)
        guard try statement.step() else { return nil }
        return try statement.value(at: 0)
    }

    private static func record(
        _ value: DatabaseValue, transaction: Int64, table: String, key: DatabaseValue, column: String, _ sql: SQLRunner
    ) throws {
        try sql.run(
            "INSERT OR REPLACE INTO boutique_sync_text_ops(txn, tbl, key, col, operations) VALUES (?, ?, ?, ?, ?)",
            [.integer(transaction), .text(table), key, .text(column), value])
    }

    /// The operations recorded for the local transactions after `after` through `through`.
    static func read(after: Int64, through: Int64, _ sql: SQLRunner) throws -> Captured {
        var captured = Captured()
        let rows = try sql.rows(
            "SELECT txn, tbl, key, col, operations FROM boutique_sync_text_ops WHERE txn > ? AND txn <= ?",
            [.integer(after), .integer(through)])
        for row in rows {
            guard case .integer(let transaction) = row[0], case .text(let table) = row[1], case .text(let column) = row[3] else { continue }
            captured.values[Captured.Cell(transaction: transaction, table: table, key: row[2], column: column)] = row[4]
        }
        return captured
    }

    /// Replaces recorded operations of the transactions after `acknowledged` that no longer read as
    /// operations (the file was damaged since they were recorded) by none, before a push reads them:
    /// the server refuses a push carrying them, whole, at every retry.
    ///
    /// The row's state holds what those operations did, which no other replica will get, and which the
    /// writer's later operations build on: its column's text is marked as awaiting a snapshot
    /// (``/BoutiqueSyncCore/CollaborativeTextValue/awaitingSnapshot``), and every server's snapshot
    /// brings the merged text back. A write of the column before then is refused and reported, as for
    /// a damaged text: diffed against no text, it would type the whole text again, twice over once
    /// the snapshot came. `unmergeable` is told of each.
    static func repairDamaged(after acknowledged: Int64, unmergeable: UnmergeableTextEdits, _ sql: SQLRunner) throws {
        var damaged: [Captured.Cell] = []
        for (cell, value) in try read(after: acknowledged, through: .max, sql).values {
            do {
                guard case .operations = try CollaborativeTextValue(value) else {
                    throw BoutiqueError.invalidArgument("recorded text operations hold a whole text state")
                }
            } catch {
                unmergeable.note(transaction: cell.transaction, table: cell.table, key: cell.key, column: cell.column, value: nil, error: error)
                damaged.append(cell)
            }
        }
        guard !damaged.isEmpty else { return }
        let states = try RowStates(sql: sql)
        for cell in damaged {
            try record(CollaborativeTextValue.operations([]).value, transaction: cell.transaction, table: cell.table, key: cell.key,
                       column: cell.column, sql)
            guard var state = try states.state(table: cell.table, key: cell.key), let lost = state.cells[cell.column] else { continue }
            state.cells[cell.column] = CellRegister(value: CollaborativeTextValue.awaitingSnapshot, stamp: lost.stamp)
            // Not shown again now: showing the lost text (as NULL) would be a write of its own,
            // refused in turn. A row written again before the snapshot (for a pulled edit of
            // another column, say) keeps showing the text too (`RowProjector.awaitsSnapshot`).
            try states.setState(state, table: cell.table, key: cell.key)
        }
        try sql.run("UPDATE boutique_sync_server SET bootstrapped = 0")
    }

    /// How far this file had pulled from `server` when it made the oldest of its text edits the server
    /// has not acknowledged (past `acknowledged`), or less; `nil` when it has none. A pull says it
    /// (``/BoutiqueSyncCore/PullRequest/passedThrough``), so that the server compacts no text those
    /// edits may name.
    ///
    /// The pull marks kept reach back to the one before the oldest write still to be pushed
    /// (``PullMarks``), and an edit is diffed when its transaction is folded, after it was written: the
    /// least cursor they hold is at most the one the edit was made from.
    ///
    /// An edit holds collection back for ``holdsBackAtMost`` at most (marks older than that, by the
    /// file's clock `now`, do not count): one that waits longer (its pushes refused for good while
    /// pulls go on) would keep the tenant's log growing. Once the server compacts the text it names,
    /// it is refused and reported.
    static func editBase(server: String, acknowledged: Int64, now: UInt64, _ sql: SQLRunner) throws -> Int64? {
        guard try sql.value("SELECT 1 FROM boutique_sync_text_ops WHERE txn > ? LIMIT 1", [.integer(acknowledged)]) != nil else { return nil }
        let since = HybridTimestamp(milliseconds: now > holdsBackAtMost ? now - holdsBackAtMost : 0)
        if let latest = try sql.value("SELECT max(clock) FROM boutique_sync_pull_mark WHERE server = ?", [.text(server)])?.integerValue,
           latest < Int64(bitPattern: since.rawValue)
        {
            // Every mark is older: the edit waited long enough.
            return nil
        }
        return try sql.value(
            """
            SELECT min(cursor) FROM boutique_sync_pull_mark WHERE server = ?1
                AND clock >= (SELECT max(clock) FROM boutique_sync_pull_mark WHERE server = ?1 AND clock < ?2)
            """,
            [.text(server), .integer(Int64(bitPattern: since.rawValue))])?.integerValue
            ?? sql.value("SELECT min(cursor) FROM boutique_sync_pull_mark WHERE server = ?", [.text(server)])?.integerValue ?? 0
    }

    /// How long an unacknowledged text edit holds the server's collection back: 30 days, in milliseconds.
    static let holdsBackAtMost: UInt64 = 30 * 86_400_000

    /// Forgets the operations of transactions the server acknowledged.
    static func removeAcknowledged(through acknowledged: Int64, _ sql: SQLRunner) throws {
        try sql.run("DELETE FROM boutique_sync_text_ops WHERE txn <= ?", [.integer(acknowledged)])
    }

    /// Recorded operations, by transaction, row and column.
    struct Captured {
        struct Cell: Hashable {
            let transaction: Int64
            let table: String
            let key: DatabaseValue
            let column: String
        }

        var values: [Cell: DatabaseValue] = [:]

        /// Puts the recorded operations in place of `changes`' plain values of collaborative columns;
        /// `false` when some were not recorded yet (the transaction was not folded).
        func substitute(into changes: inout [SyncChange], transaction: Int64, tables: [String: SyncedTable]) -> Bool {
            for index in changes.indices {
                guard let table = tables[changes[index].table], !table.collaborativeColumns.isEmpty else { continue }
                for position in changes[index].columns.indices where table.collaborativeColumns.contains(changes[index].columns[position].name) {
                    let change = changes[index]
                    guard let value = values[Cell(transaction: transaction, table: change.table, key: change.key, column: change.columns[position].name)]
                    else { return false }
                    changes[index].columns[position].value = value
                }
            }
            return true
        }
    }
}
