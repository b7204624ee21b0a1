/// A local transaction read back from `turso_cdc`, with the stamp recorded for it.
struct LocalTransaction: Sendable {
    /// Its `change_txn_id`.
    let id: Int64
    /// Its COMMIT row's `change_id`.
    let commitID: Int64
    /// Its COMMIT row's `change_time`: unix seconds when it committed.
    let commitTime: Int64
    /// The stamp and writer BoutiqueDB recorded with it at its commit; `nil` when it was written before
    /// the file was set up for sync, or by something other than BoutiqueDB.
    var stamp: SyncStamp?
    /// Whether sync applied it from a server.
    let isRemote: Bool
    /// Whether the server refused it (it was undone locally): neither pushed nor folded again.
    var isRefused = false
    /// Its changes to synced tables, in order; none when it is oversized.
    let changes: [LoggedRowChange]
    /// Whether it is too large to be read whole (``LocalLogReader/Limits``): its changes are read a
    /// slice at a time from the log rows after ``firstChangeID`` - 1 and before ``commitID``, and sent
    /// in parts (``NettedTransactions``).
    var isOversized = false
    /// Its first log row's `change_id`.
    var firstChangeID: Int64 = 0

    /// Whether it changed a synced table (an oversized one is taken to).
    var hasChanges: Bool { isOversized || !changes.isEmpty }

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
    ///
    /// A push reads tens of thousands of changes through here: see ``NetRows``.
    func syncChanges(stamp: SyncStamp) -> [SyncChange] {
        var rows = NetRows(capacity: changes.count)
        for change in changes {
            for (key, net) in Self.netting(change, current: { rows.net(change.table, $0) }) { rows.set(change.table, key, net) }
        }
        return rows.rows.compactMap { $0.syncChange(stamp: stamp) }
    }

    /// What `change` makes of the net changes of the rows it touches, given each row's net change so
    /// far (`current`): the rows' new net changes, in order (a key change deletes one row and inserts
    /// another).
    static func netting(
        _ change: LoggedRowChange, current: (DatabaseValue) throws -> NetChange.Net?
    ) rethrows -> [(key: DatabaseValue, net: NetChange.Net)] {
        let table = change.table
        switch change.kind {
        case .insert:
            guard let after = change.after, let key = key(after, table) else { return [] }
            return [(key, .insert(after))]
        case .delete:
            guard let before = change.before, let key = key(before, table) else { return [] }
            return [(key, .delete)]
        case .update:
            guard let after = change.after, let newKey = key(after, table) else { return [] }
            if let before = change.before, let oldKey = key(before, table), oldKey != newKey {
                return [(oldKey, .delete), (newKey, .insert(after))]
            }
            let positions = table.rowLevel || change.assigned == nil ? Array(after.indices) : change.assigned ?? []
            var columns: [Int: DatabaseValue] = [:]
            switch try current(newKey) {
            case .insert?: return [(newKey, .insert(after))]
            case .update(let earlier)?: columns = earlier
            case .delete?: return []
            case nil: break
            }
            for position in positions where after.indices.contains(position) { columns[position] = after[position] }
            return [(newKey, .update(columns))]
        }
    }

    /// The rows a transaction changed, in first-seen order, each with its net change so far: one array
    /// and one hash lookup per change, rows told apart by their table's identity (one ``SyncedTable``
    /// instance per table) and key, so no table name is hashed.
    private struct NetRows {
        private(set) var rows: [NetChange] = []
        private var slots: [RowIdentity: Int] = [:]

        init(capacity: Int) {
            rows.reserveCapacity(capacity)
            slots.reserveCapacity(capacity)
        }

        func net(_ table: SyncedTable, _ key: DatabaseValue) -> NetChange.Net? {
            slots[RowIdentity(table: ObjectIdentifier(table), key: key)].map { rows[$0].net }
        }

        mutating func set(_ table: SyncedTable, _ key: DatabaseValue, _ net: NetChange.Net) {
            let identity = RowIdentity(table: ObjectIdentifier(table), key: key)
            if let index = slots[identity] {
                rows[index].net = net
            } else {
                slots[identity] = rows.count
                rows.append(NetChange(table: table, key: key, net: net))
            }
        }
    }

    /// A row as the log's changes to it net out so far.
    struct NetChange {
        enum Net {
            case insert([DatabaseValue])
            case update([Int: DatabaseValue])
            case delete
        }

        let table: SyncedTable
        let key: DatabaseValue
        var net: Net

        /// The wire's change; `nil` for an update that assigned no synced column.
        func syncChange(stamp: SyncStamp) -> SyncChange? {
            switch net {
            case .insert(let values):
                var columns: [SyncColumnValue] = []
                columns.reserveCapacity(values.count)
                for position in values.indices where position < table.syncs.count && table.syncs[position] {
                    columns.append(SyncColumnValue(name: table.lowercasedColumns[position], value: values[position]))
                }
                return SyncChange(table: table.lowercasedName, key: key, kind: .insert, columns: columns, stamp: stamp)
            case .update(let assigned):
                let columns = assigned.keys.sorted()
                    .filter { $0 < table.syncs.count && table.syncs[$0] && $0 != table.keyPosition }
                    .compactMap { position in
                        assigned[position].map { SyncColumnValue(name: table.lowercasedColumns[position], value: $0) }
                    }
                guard !columns.isEmpty else { return nil }
                return SyncChange(table: table.lowercasedName, key: key, kind: .update, columns: columns, stamp: stamp)
            case .delete:
                return SyncChange(table: table.lowercasedName, key: key, kind: .delete, columns: [], stamp: stamp)
            }
        }
    }

    /// A row of a synced table: one ``SyncedTable`` instance per table, so its identity names it.
    private struct RowIdentity: Hashable {
        let table: ObjectIdentifier
        let key: DatabaseValue
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
