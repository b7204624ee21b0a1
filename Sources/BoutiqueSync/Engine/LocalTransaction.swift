/// A local transaction read back from `turso_cdc`, with the stamp recorded for it.
struct LocalTransaction: Sendable {
    /// Its `change_txn_id`.
    let id: Int64
    /// Its COMMIT row's `change_id`.
    let commitID: Int64
    /// The stamp and writer recorded with it, `nil` when it was written without sync running.
    var stamp: SyncStamp?
    /// Whether sync applied it from a server.
    let isRemote: Bool
    /// Its changes to synced tables, in order.
    let changes: [LoggedRowChange]

    /// One logged row change of a synced table.
    struct LoggedRowChange: Sendable {
        let table: SyncedTable
        let kind: SyncChange.Kind
        let before: [DatabaseValue]?
        let after: [DatabaseValue]?
        /// The positions an update assigned, `nil` when the log did not record them.
        let assigned: [Int]?
    }

    /// The transaction as the wire carries it: at most one change per row (a row inserted then updated
    /// is one insert with the final values), inserts with every synced column, updates with the columns
    /// they assigned (every column for a row-level table), deletes with the key alone.
    func syncChanges(stamp: SyncStamp) -> [SyncChange] {
        enum Net {
            case insert([DatabaseValue])
            case update([Int: DatabaseValue])
            case delete
        }
        struct RowID: Hashable {
            let table: String
            let key: DatabaseValue
        }
        var order: [(RowID, SyncedTable)] = []
        var net: [RowID: Net] = [:]
        func set(_ id: RowID, _ table: SyncedTable, _ value: Net) {
            if net[id] == nil { order.append((id, table)) }
            net[id] = value
        }
        for change in changes {
            let table = change.table
            let name = table.lowercasedName
            switch change.kind {
            case .insert:
                guard let after = change.after, let key = Self.key(after, table) else { continue }
                set(RowID(table: name, key: key), table, .insert(after))
            case .delete:
                guard let before = change.before, let key = Self.key(before, table) else { continue }
                set(RowID(table: name, key: key), table, .delete)
            case .update:
                guard let after = change.after, let newKey = Self.key(after, table) else { continue }
                if let before = change.before, let oldKey = Self.key(before, table), oldKey != newKey {
                    set(RowID(table: name, key: oldKey), table, .delete)
                    set(RowID(table: name, key: newKey), table, .insert(after))
                    continue
                }
                let id = RowID(table: name, key: newKey)
                let positions = table.rowLevel || change.assigned == nil ? Array(after.indices) : change.assigned ?? []
                switch net[id] {
                case .insert?:
                    set(id, table, .insert(after))
                case .update(var columns)?:
                    for position in positions where after.indices.contains(position) { columns[position] = after[position] }
                    set(id, table, .update(columns))
                case .delete?:
                    continue
                case nil:
                    var columns: [Int: DatabaseValue] = [:]
                    for position in positions where after.indices.contains(position) { columns[position] = after[position] }
                    set(id, table, .update(columns))
                }
            }
        }
        return order.compactMap { id, table -> SyncChange? in
            guard let value = net[id] else { return nil }
            switch value {
            case .insert(let values):
                let columns = values.indices.filter { $0 < table.syncs.count && table.syncs[$0] }.map {
                    SyncColumnValue(name: table.lowercasedColumns[$0], value: values[$0])
                }
                return SyncChange(table: id.table, key: id.key, kind: .insert, columns: columns, stamp: stamp)
            case .update(let assigned):
                let columns = assigned.keys.sorted().filter { $0 < table.syncs.count && table.syncs[$0] && $0 != table.keyPosition }
                    .compactMap { position in
                        assigned[position].map { SyncColumnValue(name: table.lowercasedColumns[position], value: $0) }
                    }
                guard !columns.isEmpty else { return nil }
                return SyncChange(table: id.table, key: id.key, kind: .update, columns: columns, stamp: stamp)
            case .delete:
                return SyncChange(table: id.table, key: id.key, kind: .delete, columns: [], stamp: stamp)
            }
        }
    }

    /// A row's key from its image, when it is one sync can carry (text or blob).
    private static func key(_ image: [DatabaseValue], _ table: SyncedTable) -> DatabaseValue? {
        guard image.indices.contains(table.keyPosition) else { return nil }
        switch image[table.keyPosition] {
        case .text, .blob: return image[table.keyPosition]
        default: return nil
        }
    }
}
