/// Keeps foreign keys whole at every commit of a bootstrap, whose pages come in (table, key) order: a
/// `comment` row arrives before the `note` it belongs to, a child of a tree before its parent.
///
/// Each page commits on its own, so deferring foreign keys to the commit (as a pull does) is not enough:
/// a child whose parent is in a later page would fail its page's commit. Nor can the pages come in
/// parent-first order: the server does not know the device's foreign keys, and a table that refers to
/// itself has no such order. So a row whose parent is neither in the table nor coming in the same page
/// waits in `boutique_sync_snapshot_waiting` (its snapshot state, not merged yet, by the parent it
/// waits for), and is merged in the page where that parent arrives, with the rows that wait for it in
/// turn. A waiting row is not merged at all, rather than merged and kept out of its table: its state
/// then says nothing it does not show, and a crash leaves nothing half-done to repair. At the last page
/// every row still waiting is merged, and ``OrphanRepair`` treats those whose parent never came as it
/// treats any child without a parent.
///
/// Only single-column foreign keys from a synced table to another synced table's key (the only kind
/// a snapshot can satisfy) hold rows back; others are the app's business, as they are for a pull.
struct SnapshotParents: Sendable {
    struct Reference: Sendable, Hashable {
        /// The child's column, lowercased (as row states name columns).
        let column: String
        /// The parent table, lowercased.
        let parent: String
    }

    /// Child table (lowercased) → its references to synced parents.
    let references: [String: [Reference]]
    /// The tables some synced table refers to.
    let parents: Set<String>
    /// The synced tables by lowercased name: where a parent's presence is looked up.
    private let tablesByName: [String: SyncedTable]

    /// Reads the synced tables' foreign keys from the schema.
    init(tables: [String: SyncedTable], sql: SQLRunner) throws {
        var references: [String: [Reference]] = [:]
        for (name, table) in tables {
            let keys = try sql.rows(
                #"SELECT id, "table", "from", "to" FROM pragma_foreign_key_list(?) ORDER BY id, seq"#, [.text(table.name)])
            let byID = Dictionary(grouping: keys) { $0[0].integerValue ?? -1 }
            for columns in byID.values where columns.count == 1 {
                guard case .text(let parentName) = columns[0][1], case .text(let from) = columns[0][2],
                    let parent = tables[parentName.lowercased()]
                else { continue }
                // `REFERENCES parent` without a column names the parent's key.
                if case .text(let to) = columns[0][3], to.lowercased() != parent.keyColumn.lowercased() { continue }
                references[name, default: []].append(Reference(column: from.lowercased(), parent: parentName.lowercased()))
            }
        }
        self.references = references
        self.parents = Set(references.values.flatMap { $0.map(\.parent) })
        self.tablesByName = tables
    }

    var isEmpty: Bool { references.isEmpty }

    /// The rows to merge with `page`: those of the page whose parents are there or come with it, and
    /// rows waiting for a parent that does. The other rows of the page are stored to wait. On the last
    /// page (`last`) every row is merged, the waiting ones included.
    func sortOut(_ page: [SnapshotRow], server: String, last: Bool, sql: SQLRunner) throws -> [SnapshotRow] {
        let waitingRows = SnapshotWaitingRows(server: server, sql: sql)
        guard !isEmpty else { return last ? page + (try waitingRows.takeAll()) : page }
        var candidates = page.map { row in
            var row = row
            row.table = RemoteApplier.lowercased(row.table)
            return row
        }
        var released: Set<SnapshotIdentity> = []
        // The rows waiting for a parent in this page, and for those, transitively.
        var frontier = candidates.indices.filter { parents.contains(candidates[$0].table) && candidates[$0].state.isVisible }
        while let index = frontier.popLast() {
            let parent = candidates[index]
            for waiting in try waitingRows.rows(waitingFor: SnapshotIdentity(table: parent.table, key: parent.key)) {
                guard released.insert(SnapshotIdentity(table: waiting.table, key: waiting.key)).inserted else { continue }
                candidates.append(waiting)
                if parents.contains(waiting.table), waiting.state.isVisible { frontier.append(candidates.count - 1) }
            }
        }
        if last { return candidates + (try waitingRows.takeAll()) }

        // Every candidate is ready until a parent it names is found missing; a row held back takes the
        // rows that named it as their parent with it, hence the loop until nothing changes.
        var index: [SnapshotIdentity: Int] = [:]
        for (position, row) in candidates.enumerated() { index[SnapshotIdentity(table: row.table, key: row.key)] = position }
        var ready = Array(repeating: true, count: candidates.count)
        var missing: [Int: SnapshotIdentity] = [:]
        var inTable: [SnapshotIdentity: Bool] = [:]
        var changed = true
        while changed {
            changed = false
            for position in candidates.indices where ready[position] {
                let row = candidates[position]
                guard row.state.isVisible, let references = references[row.table] else { continue }
                let values = row.state.visibleValues
                for reference in references {
                    guard let value = values[reference.column], !value.isNull else { continue }
                    let parent = SnapshotIdentity(table: reference.parent, key: value)
                    if let coming = index[parent], ready[coming], candidates[coming].state.isVisible { continue }
                    if try isInTable(parent, cache: &inTable, sql: sql) { continue }
                    ready[position] = false
                    missing[position] = parent
                    changed = true
                    break
                }
            }
        }
        var merged: [SnapshotRow] = []
        merged.reserveCapacity(candidates.count)
        for (position, row) in candidates.enumerated() {
            let identity = SnapshotIdentity(table: row.table, key: row.key)
            if ready[position] {
                merged.append(row)
                if released.contains(identity) { try waitingRows.release(table: row.table, key: row.key) }
            } else if let parent = missing[position] {
                try waitingRows.hold(row, until: parent)
            }
        }
        return merged
    }

    /// Whether the parent row is in its table now.
    private func isInTable(_ parent: SnapshotIdentity, cache: inout [SnapshotIdentity: Bool], sql: SQLRunner) throws -> Bool {
        if let known = cache[parent] { return known }
        guard let table = tablesByName[parent.table] else { return true }
        let found = try sql.value(
            "SELECT 1 FROM \(SQLIdentifier.quote(table.name)) WHERE \(SQLIdentifier.quote(table.keyColumn)) = ?", [parent.key]) != nil
        cache[parent] = found
        return found
    }
}
