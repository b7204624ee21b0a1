/// Folds local transactions into the row states, from the change log: the per-column winning stamps
/// of local writes are derived here rather than written by every local transaction.
///
/// The log and each transaction's stamp (written with it) hold everything the fold needs, so it can
/// run any time later, inside the transaction that needs the states (a pull, before it merges remote
/// changes), and a crash in between loses nothing: the fold just runs again.
enum LocalFolder {
    /// Folds every local transaction after the last one folded, inside the caller's write transaction.
    /// Writes of collaborative text that cannot be merged are left out and told to `unmergeable`
    /// (``CollaborativeTextCapture``): one such write never stops the fold.
    static func fold(tables: [String: SyncedTable], replica: String, unmergeable: UnmergeableTextEdits, on connection: Connection) throws {
        let sql = SQLRunner(connection)
        var through = try ReplicaRecordRow.read(sql)?.foldedThrough ?? 0
        let start = through
        let states = try RowStates(sql: sql)
        let ownWrites = OwnWrites(sql: sql)
        while true {
            let (transactions, readThrough) = try LocalLogReader.transactions(
                after: through, rowLimit: 4_096, limits: .standard, tables: tables, on: connection)
            for transaction in transactions where !transaction.isRemote && !transaction.isRefused && transaction.hasChanges {
                let stamp = try transaction.stamp ?? assignStamp(to: transaction, replica: replica, sql)
                try forEachChange(of: transaction, stamp: stamp, tables: tables, sql) { logged in
                    var change = logged
                    var state = try states.state(table: change.table, key: change.key) ?? RowRegister()
                    let before = state
                    var reshow = false
                    if let table = tables[change.table], !table.collaborativeColumns.isEmpty {
                        reshow = try CollaborativeTextCapture.capture(
                            &change, table: table, transaction: transaction.id, state: &state, unmergeable: unmergeable, sql: sql)
                    }
                    MergeRule.apply(change, to: &state, textColumns: tables[change.table]?.collaborativeColumns ?? [])
                    try states.setState(state, table: change.table, key: change.key)
                    // What this write replaced of the file's earlier ones comes back should it be refused.
                    try SupersededCells.note(
                        transaction: transaction.id, table: change.table, key: change.key, before: before, after: state, stamp: stamp,
                        ownWrites: ownWrites, sql: sql)
                    if let table = tables[change.table], !table.foreignKeyColumns.isEmpty {
                        // A local move: note where the row was, in case its new parent turns out deleted.
                        try PreviousValues.track(
                            table: table, key: change.key, before: before, arrivals: [MergeRule.register(for: change)], merged: state, sql: sql)
                    }
                    // A local write normally wins (the clock is past every stamp the file has seen);
                    // one that lost somewhere (a clock that went back across a restore, a write made
                    // before a concurrent delete arrived) leaves the table showing it: show the state.
                    if reshow || !wonEverywhere(change, in: state), let table = tables[change.table] {
                        try RowProjector(sql: sql).reproject(state, key: change.key, table: table)
                    }
                }
            }
            guard readThrough > through else { break }
            through = readThrough
        }
        if through != start {
            let folded = through
            try ReplicaRecordRow.change(sql) { $0.foldedThrough = folded }
        }
    }

    /// Calls `body` with each of `transaction`'s changes as the wire carries them: netted in memory,
    /// or (an oversized transaction) a slice at a time from ``NettedTransactions``.
    static func forEachChange(
        of transaction: LocalTransaction, stamp: SyncStamp, tables: [String: SyncedTable], _ sql: SQLRunner,
        _ body: (SyncChange) throws -> Void
    ) throws {
        guard transaction.isOversized else {
            for change in transaction.syncChanges(stamp: stamp) { try body(change) }
            return
        }
        try NettedTransactions.prepare(transaction, tables: tables, sql)
        try NettedTransactions.forEachSlice(of: transaction.id, stamp: stamp, tables: tables, sql) { changes in
            for change in changes { try body(change) }
        }
    }

    /// Whether `state` holds `change` in every place it wrote.
    static func wonEverywhere(_ change: SyncChange, in state: RowRegister) -> Bool {
        if change.kind != .update, state.existence?.stamp != change.stamp { return false }
        for column in change.columns where state.cells[column.name]?.stamp != change.stamp { return false }
        if change.kind == .update, !state.isVisible { return false }
        return true
    }

    /// Stamps, once and for good, a local transaction that BoutiqueDB did not stamp at its commit (it
    /// was written before the file was set up for sync, or by a writer that bypasses BoutiqueDB): with
    /// the log's own commit time, which is when it was made, not when sync came to read it.
    ///
    /// The log keeps whole seconds; the counter part is taken from the transaction id, so that such
    /// transactions of one second keep their order and differ from each other. The file's clock moves
    /// past the stamp, so later local writes are stamped later.
    static func assignStamp(to transaction: LocalTransaction, replica: String, _ sql: SQLRunner) throws -> SyncStamp {
        let seconds = UInt64(max(0, transaction.commitTime))
        let time = HybridTimestamp(
            milliseconds: seconds.multipliedReportingOverflow(by: 1000).overflow ? .max : seconds * 1000,
            counter: UInt16(truncatingIfNeeded: transaction.id))
        let raw = Int64(bitPattern: time.rawValue)
        // First, while the clock still reads the newest stamp: this row may become the newest.
        try ReplicaRecordRow.advanceClock(past: raw, sql)
        try TransactionStamp.record(
            TransactionStamp(transactionID: transaction.id, stamp: raw, writer: replica, mark: .local), on: sql.connection)
        return SyncStamp(time: time, replica: replica)
    }
}
