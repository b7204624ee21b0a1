/// Applies what the server sent inside one local write transaction: merges it into the rows' states
/// by the rule, and makes each table show the result.
///
/// A batch is applied row by row, not change by change: every state the batch touches is read in a
/// few statements, the changes are merged in memory, each row is written once from its final state
/// (new rows many to a statement), and the states are written back many to a statement. A pull of
/// ten thousand changes is then a few hundred statements beside the rows' own.
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
    private(set) var appliedRows = 0
    /// The tables that had rows deleted (their children may have gone with them, by a cascade).
    var deletedTables: Set<String> = []
    /// The tables that had rows written.
    var touchedTables: Set<String> = []

    struct ParkedName: Hashable {
        let table: String
        let column: String
    }

    struct RowID: Hashable {
        let table: String
        let key: DatabaseValue
    }

    init(sql: SQLRunner, tables: [String: SyncedTable]) throws {
        self.sql = sql
        self.tables = tables
        self.states = try RowStates(sql: sql)
    }

    /// Names arrive lowercased from devices of this library; others are lowercased here.
    static func hasUppercase(_ name: String) -> Bool { name.utf8.contains { $0 >= 65 && $0 <= 90 } }
    static func lowercased(_ name: String) -> String { hasUppercase(name) ? name.lowercased() : name }

    /// Merges pulled changes, in order.
    mutating func apply(_ changes: [SyncChange]) throws {
        try merge(changes.map { change in
            var normalized = change
            normalized.table = Self.lowercased(change.table)
            if change.columns.contains(where: { Self.hasUppercase($0.name) }) {
                normalized.columns = change.columns.map { SyncColumnValue(name: $0.name.lowercased(), value: $0.value) }
            }
            return (RowID(table: normalized.table, key: normalized.key), MergeRule.register(for: normalized))
        })
    }

    /// Merges snapshot rows.
    mutating func apply(_ rows: [SnapshotRow]) throws {
        try merge(rows.map { (RowID(table: Self.lowercased($0.table), key: $0.key), $0.state) })
    }

    private mutating func merge(_ incoming: [(id: RowID, state: RowRegister)]) throws {
        guard !incoming.isEmpty else { return }
        var keysByTable: [String: [DatabaseValue]] = [:]
        for (id, _) in incoming { keysByTable[id.table, default: []].append(id.key) }
        var before: [RowID: RowRegister] = [:]
        for (table, keys) in keysByTable {
            for (key, state) in try states.states(table: table, keys: keys) { before[RowID(table: table, key: key)] = state }
        }
        var order: [RowID] = []
        var after: [RowID: RowRegister] = [:]
        for (id, state) in incoming {
            let earlier = after[id]
            if earlier == nil { order.append(id) }
            var merged = earlier ?? before[id] ?? RowRegister()
            MergeRule.join(state, into: &merged)
            after[id] = merged
            if let table = tables[id.table] {
                for name in state.cells.keys where table.position(of: name) == nil {
                    park(ParkedName(table: id.table, column: name))
                }
            } else {
                park(ParkedName(table: id.table, column: ""))
            }
        }
        try states.write(order.compactMap { id in
            guard let state = after[id], state != before[id] else { return nil }
            return (id.table, id.key, state)
        })
        var inserts: [String: [[DatabaseValue]]] = [:]
        var insertOrder: [String] = []
        for id in order {
            guard let table = tables[id.table], let state = after[id] else { continue }
            let old = before[id]
            if !(old?.isVisible ?? false), state.isVisible, let values = RowProjector.wholeRow(state, key: id.key, table: table) {
                // A new row with every column: written with others in one statement.
                if inserts[id.table] == nil { insertOrder.append(id.table) }
                inserts[id.table, default: []].append(values)
            } else {
                try projectOrPark(state, key: id.key, table: table, effect: Self.difference(from: old ?? RowRegister(), to: state))
            }
        }
        for name in insertOrder {
            guard let table = tables[name], let rows = inserts[name] else { continue }
            try insert(rows, into: table, states: after)
        }
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

    /// Inserts new rows many to a statement; a statement the table refuses is retried row by row.
    private mutating func insert(_ rows: [[DatabaseValue]], into table: SyncedTable, states: [RowID: RowRegister]) throws {
        let name = table.name.lowercased()
        var start = 0
        while start < rows.count {
            let chunk = Array(rows[start..<min(start + RowProjector.rowsPerInsert, rows.count)])
            start += chunk.count
            do {
                try RowProjector(sql: sql).insert(chunk, into: table)
                appliedRows += chunk.count
                touchedTables.insert(name)
            } catch let error as SQLiteError where error.code == .constraint {
                for values in chunk {
                    guard let key = values.first, let state = states[RowID(table: name, key: key)] else { continue }
                    try projectOrPark(
                        state, key: key, table: table, effect: MergeRule.Effect(wasVisible: false, isVisible: true, changedColumns: []))
                }
            }
        }
    }

    /// Projects a row; a row the table refuses is parked and the transaction goes on.
    mutating func projectOrPark(_ state: RowRegister, key: DatabaseValue, table: SyncedTable, effect: MergeRule.Effect) throws {
        do {
            if try RowProjector(sql: sql).project(state, key: key, table: table, effect: effect) {
                appliedRows += 1
                touchedTables.insert(table.name.lowercased())
                if effect.wasVisible && !effect.isVisible { deletedTables.insert(table.name.lowercased()) }
            }
        } catch let error as SQLiteError where error.code == .constraint && error.extendedCode != .constraintForeignKey {
            park(ParkedName(table: table.name.lowercased(), column: "#row"))
        } catch let error as BoutiqueError where error.resultCode?.primary == .constraint
            && error.resultCode != .constraintForeignKey
        {
            park(ParkedName(table: table.name.lowercased(), column: "#row"))
        }
    }

    private mutating func park(_ name: ParkedName) {
        guard parked.insert(name).inserted else { return }
        try? sql.run("INSERT OR IGNORE INTO boutique_sync_parked(tbl, col) VALUES (?, ?)", [.text(name.table), .text(name.column)])
    }
}
