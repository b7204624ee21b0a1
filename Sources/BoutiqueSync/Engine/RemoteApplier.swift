/// Applies changes from the server inside one local write transaction: merges each into its row's
/// state by the rule, and makes the table show the result.
///
/// Values for a table this app version does not sync, or a column its schema lacks, stay in the row
/// states and are noted in `boutique_sync_parked`; ``ParkedValues`` writes them once a migration adds
/// the table or column. A row the table refuses (a constraint the values break) is parked the same way
/// instead of failing the whole pull.
struct RemoteApplier {
    let sql: SQLRunner
    let tables: [String: SyncedTable]
    private var parked: Set<ParkedName> = []
    /// How many row changes reached a table.
    private(set) var appliedRows = 0
    /// The tables that had rows deleted (their children may have gone with them, by a cascade).
    var deletedTables: Set<String> = []
    /// The tables that had rows written.
    var touchedTables: Set<String> = []

    struct ParkedName: Hashable {
        let table: String
        let column: String
    }

    init(sql: SQLRunner, tables: [String: SyncedTable]) {
        self.sql = sql
        self.tables = tables
    }

    var states: RowStates { RowStates(sql: sql) }
    var projector: RowProjector { RowProjector(sql: sql) }

    /// Merges `change` and updates the table.
    mutating func apply(_ change: SyncChange) throws {
        let tableName = change.table.lowercased()
        var normalized = change
        normalized.table = tableName
        normalized.columns = change.columns.map { SyncColumnValue(name: $0.name.lowercased(), value: $0.value) }
        var state = try states.state(table: tableName, key: change.key) ?? RowRegister()
        let effect = MergeRule.apply(normalized, to: &state)
        try states.setState(state, table: tableName, key: change.key)
        guard let table = tables[tableName] else {
            park(ParkedName(table: tableName, column: ""))
            return
        }
        for column in normalized.columns where table.position(of: column.name) == nil {
            park(ParkedName(table: tableName, column: column.name))
        }
        try projectOrPark(state, key: change.key, table: table, effect: effect)
    }

    /// Notes the columns of `state` that `table` lacks (values from a newer app version).
    mutating func parkUnknownColumns(of state: RowRegister, table: SyncedTable) {
        for name in state.cells.keys where table.position(of: name) == nil {
            park(ParkedName(table: table.name.lowercased(), column: name))
        }
    }

    /// Projects a row; a row the table refuses is parked and the transaction goes on.
    mutating func projectOrPark(_ state: RowRegister, key: DatabaseValue, table: SyncedTable, effect: MergeRule.Effect) throws {
        do {
            if try projector.project(state, key: key, table: table, effect: effect) {
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
