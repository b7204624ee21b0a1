/// Applies what the server sent inside one local write transaction: merges it into the rows' states
/// by the rule, and makes each table show the result.
///
/// A batch is applied row by row, not change by change: every state the batch touches is read in a
/// few statements, the changes are merged in memory, each row is written once from its final state
/// (new rows many to a statement, ``NewRows``), and the states are written back many to a statement
/// (``RowStateWriter``). A pull of ten thousand changes is then a few hundred statements beside the
/// rows' own.
///
/// Most of a pull is rows the device has no state for, each changed once: their merged state is the
/// change itself, so its record is written straight from the change and the row straight from the
/// change's values (``PulledColumns``), without building the state in between.
///
/// Values for a table this app version does not sync, or a column its schema lacks, stay in the row
/// states and are noted in `boutique_sync_parked`; ``ParkedValues`` writes them once a migration adds
/// the table or column. A row the table refuses (a constraint the values break) is parked the same way
/// instead of failing the whole pull.
struct RemoteApplier {
    let sql: SQLRunner
    let tables: [String: SyncedTable]
    let states: RowStates
    private var parked: Set<ParkedName> = []
    /// How many rows of a table changed.
    var appliedRows = 0
    /// The tables that had rows deleted (their children may have gone with them, by a cascade).
    var deletedTables: Set<String> = []
    /// The tables that had rows written.
    var touchedTables: Set<String> = []
    /// Per table, the keys of the rows it deleted (their children may have been changed by a `SET NULL`
    /// or `SET DEFAULT` action).
    var deletedKeys: [String: [DatabaseValue]] = [:]
    /// This device's changes the batch discarded (see ``SyncLoss``), to report once it commits.
    var losses: [SyncLoss] = []
    /// Which stamps are this file's: losses are reported only to the device that wrote.
    let ownWrites: OwnWrites
    /// Where this file's own writes are in the server's log, to tell an edit overwritten by a
    /// concurrent one from one overwritten knowingly; `nil` where the changes are not a pull's.
    var ownLog: OwnLogPositions?
    /// Rows and moves of this device's the batch undid, judged once the whole batch is merged (their
    /// parents may go later in it).
    var removedRows: [RemovedRow] = []
    var revertedMoves: [RevertedMove] = []
    /// Per table, the columns its latest change named; and the latest change's table and columns.
    private var layouts: [String: PulledColumns] = [:]
    private var lastLayout: (table: String, columns: PulledColumns)?

    struct ParkedName: Hashable {
        let table: String
        let column: String
    }

    typealias RowID = PendingRows.RowID

    init(sql: SQLRunner, tables: [String: SyncedTable]) throws {
        self.sql = sql
        self.tables = tables
        self.states = try RowStates(sql: sql)
        self.ownWrites = OwnWrites(sql: sql)
    }

    /// Names arrive lowercased from devices of this library; others are lowercased here.
    static func hasUppercase(_ name: String) -> Bool {
        // A native string's bytes are read in place (the generic path costs a call per byte).
        name.utf8.withContiguousStorageIfAvailable { $0.contains { $0 >= 65 && $0 <= 90 } }
            ?? name.utf8.contains { $0 >= 65 && $0 <= 90 }
    }

    static func lowercased(_ name: String) -> String { hasUppercase(name) ? name.lowercased() : name }

    /// Merges pulled changes, in order; `expectedCount` sizes the batch's tables (a filtered
    /// sequence would be walked once more to count it).
    mutating func apply(_ changes: some Sequence<SyncChange>, expectedCount: Int) throws {
        var rows = PendingRows(capacity: expectedCount)
        for change in changes {
            guard Self.hasUppercase(change.table) || change.columns.contains(where: { Self.hasUppercase($0.name) }) else {
                rows.add(RowID(table: change.table, key: change.key), .change(change))
                continue
            }
            var normalized = change
            normalized.table = Self.lowercased(change.table)
            normalized.columns = change.columns.map { SyncColumnValue(name: Self.lowercased($0.name), value: $0.value) }
            rows.add(RowID(table: normalized.table, key: normalized.key), .change(normalized))
        }
        try merge(rows)
    }

    /// Merges snapshot rows.
    mutating func apply(_ snapshot: [SnapshotRow]) throws {
        var rows = PendingRows(capacity: snapshot.count)
        for row in snapshot { rows.add(RowID(table: Self.lowercased(row.table), key: row.key), .state(row.state)) }
        try merge(rows)
    }

    private mutating func merge(_ pending: PendingRows) throws {
        guard !pending.isEmpty else { return }
        var pending = pending
        for (table, indices) in pending.tables {
            let found = try states.states(table: table, keys: indices.map { pending.rows[$0].id.key })
            guard !found.isEmpty else { continue }
            for index in indices {
                if let state = found[pending.rows[index].id.key] { pending.setBefore(state, at: index) }
            }
        }
        var writer = RowStateWriter(states: states)
        var inserts = NewRows.Queue()
        var lastTable: (name: String, table: SyncedTable?)?
        for index in pending.rows.indices {
            let row = pending.rows[index]
            let table = lastTable?.name == row.id.table ? lastTable?.table : tables[row.id.table]
            lastTable = (row.id.table, table)
            if row.before == nil, row.later.isEmpty, case .change(let change) = row.first {
                let layout = layout(of: change, table: table)
                // A row new to this device, changed once: the change is its merged state.
                if layout.distinct {
                    try writer.write(stateOf: change, table: row.id.table, key: row.id.key)
                    guard let table, change.kind == .insert else { continue }
                    if layout.complete {
                        try queue(row: index, of: table, in: &inserts, pending: pending) { values in
                            layout.appendWholeRow(change.columns, key: row.id.key, to: &values)
                        }
                        continue
                    }
                    let state = MergeRule.register(for: change)
                    try projectOrPark(state, key: row.id.key, table: table, effect: Self.difference(from: RowRegister(), to: state))
                    continue
                }
            }
            let state = row.merged(textColumns: table?.collaborativeColumns ?? [])
            for arrival in row.arrivals { parkUnknown(arrival.columnNames, of: row.id.table, in: table) }
            if state != row.before { try writer.write(state, table: row.id.table, key: row.id.key) }
            if row.before != nil {
                try OutrunArrivals.note(row.arrivals, after: state, table: row.id.table, key: row.id.key, ownWrites: ownWrites, sql: sql)
            }
            if !state.isVisible {
                try noteDeadRow(row, after: state, table: table)
            } else if let before = row.before, let ownLog {
                try noteConcurrentOverwrites(row, before: before, after: state, table: table, positions: ownLog)
            }
            guard let table else { continue }
            if !table.foreignKeyColumns.isEmpty, row.before != nil || !row.later.isEmpty {
                if let before = row.before, state.isVisible { try noteRevertedMoves(before: before, after: state, key: row.id.key, table: table) }
                try PreviousValues.track(
                    table: table, key: row.id.key, before: row.before, arrivals: row.arrivals.map(\.register), merged: state, sql: sql)
            }
            let wasVisible = row.before?.isVisible ?? false
            if !wasVisible, state.isVisible, let values = RowProjector.wholeRow(state, key: row.id.key, table: table) {
                try queue(row: index, of: table, in: &inserts, pending: pending) { $0.append(contentsOf: values) }
                continue
            }
            try projectOrPark(
                state, key: row.id.key, table: table, effect: Self.difference(from: row.before ?? RowRegister(), to: state))
        }
        try writer.flush()
        try insertQueued(&inserts, pending: pending)
        if !removedRows.isEmpty { try settleRemovedRows() }
        if !revertedMoves.isEmpty { try settleRevertedMoves() }
    }

    /// The layout of `change`'s columns, its table's last one when the names match (looked up by name
    /// only when the table differs from the last change's); unknown columns (and an unknown table) are
    /// parked.
    private mutating func layout(of change: SyncChange, table: SyncedTable?) -> PulledColumns {
        let layout: PulledColumns
        if let last = lastLayout, last.table == change.table, last.columns.matches(change.columns) {
            layout = last.columns
        } else {
            if let known = layouts[change.table], known.matches(change.columns) {
                layout = known
            } else {
                layout = PulledColumns(names: change.columns.map(\.name), table: table)
                layouts[change.table] = layout
            }
            lastLayout = (change.table, layout)
        }
        if table == nil {
            park(ParkedName(table: change.table, column: ""))
        } else {
            for name in layout.unknown { park(ParkedName(table: change.table, column: name)) }
        }
        return layout
    }

    /// Parks the columns among `names` that the table lacks, or the table when this app has no such table.
    private mutating func parkUnknown(_ names: [String], of name: String, in table: SyncedTable?) {
        guard let table else {
            park(ParkedName(table: name, column: ""))
            return
        }
        for column in names where table.position(of: column) == nil { park(ParkedName(table: name, column: column)) }
    }

    /// What a row's table must change to go from showing `old` to showing `new`.
    static func difference(from old: RowRegister, to new: RowRegister) -> MergeRule.Effect {
        var changed: Set<String> = []
        var hidden: Set<String> = []
        for (name, cell) in new.cells {
            // `DatabaseValue` is `ExpressibleByNilLiteral`: a bare `nil` here would be `.null`, not "no value".
            let current: DatabaseValue? = new.isCurrent(cell) ? .some(cell.value) : .none
            var previous: DatabaseValue? = .none
            if let earlier = old.cells[name], old.isCurrent(earlier) { previous = .some(earlier.value) }
            if let current {
                if current != previous || !old.isVisible { changed.insert(name) }
            } else if previous != nil {
                hidden.insert(name)
            }
        }
        return MergeRule.Effect(wasVisible: old.isVisible, isVisible: new.isVisible, changedColumns: changed, hiddenColumns: hidden)
    }

    /// Projects a row; a row the table refuses is parked and the transaction goes on.
    mutating func projectOrPark(_ state: RowRegister, key: DatabaseValue, table: SyncedTable, effect: MergeRule.Effect) throws {
        do {
            if try RowProjector(sql: sql).project(state, key: key, table: table, effect: effect) {
                appliedRows += 1
                touchedTables.insert(table.name.lowercased())
                if effect.wasVisible && !effect.isVisible {
                    deletedTables.insert(table.lowercasedName)
                    deletedKeys[table.lowercasedName, default: []].append(key)
                }
            }
        } catch let error as SQLiteError where error.code == .constraint && error.extendedCode != .constraintForeignKey {
            park(ParkedName(table: table.name.lowercased(), column: "#row"))
        } catch let error as BoutiqueError where error.resultCode?.primary == .constraint
            && error.resultCode != .constraintForeignKey
        {
            park(ParkedName(table: table.name.lowercased(), column: "#row"))
        }
    }

    mutating func park(_ name: ParkedName) {
        guard parked.insert(name).inserted else { return }
        try? ParkedValues.note(table: name.table, column: name.column, sql: sql)
    }
}
