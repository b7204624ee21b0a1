/// A snapshot on a server with rules: the rows of the spaces the user is in now, space by space; or one
/// space's rows, for a device moving in a space it joined.
///
/// A shared space's rows come table by table, parents first (``/BoutiqueSync/SyncRules/sharedTables(shapes:)``):
/// a device merges each page in its own transaction and holds back a row whose parent has not come yet,
/// so a list's thousands of reminders served before the list would all wait for it. Other spaces come
/// by table and key. Each space is read from the store's space index, so a page costs what it returns
/// whatever the tenant holds.
struct SpaceSnapshot {
    let store: any SyncStoreTransaction
    let user: String
    /// The tables of shared spaces, parents first.
    let sharedTables: [String]

    func page(_ request: SnapshotRequest, limit: Int, maximumBytes: Int, time: HybridTimestamp) throws -> SnapshotResponse {
        var spaces = Set(try store.memberships(of: user, at: nil).keys)
        spaces.insert(.common)
        spaces.insert(.private(user: user))
        var order = spaces.sorted()
        if let only = request.space {
            // A space the user is not in answers with no rows, exactly as an empty one does.
            order = spaces.contains(only) ? [only] : []
        }
        var rows: [SnapshotRow] = []
        var budget = PageBudget(maximumBytes: maximumBytes)
        let start = request.after.map { $0.space ?? .common }
        for space in order where start.map({ !(space < $0) }) ?? true {
            let from = space == start ? request.after : nil
            rows += try self.rows(in: space, after: from, limit: limit - rows.count, budget: &budget)
            if rows.count == limit || budget.isSpent { break }
        }
        let next = rows.count == limit || budget.isSpent ? rows.last.map { SnapshotPosition(table: $0.table, key: $0.key, space: $0.space ?? .common) } : nil
        let total = request.after == nil || request.includeTotal == true ? try store.rowCount(in: order) : nil
        return SnapshotResponse(rows: rows, next: next, cursor: try store.latestSequence(), serverTime: time, totalRows: total)
    }

    /// A page of one space's rows after `position` (in that space), as many as `budget` holds: their
    /// sizes are read first, then those rows.
    private func rows(in space: SyncSpace, after position: SnapshotPosition?, limit: Int, budget: inout PageBudget) throws -> [SnapshotRow] {
        func byKey(after position: SnapshotPosition?, budget: inout PageBudget) throws -> [SnapshotRow] {
            let count = budget.take(try store.rowSizes(in: space, after: position, limit: limit))
            return count > 0 ? try store.rows(in: space, after: position, limit: count) : []
        }
        guard space.root != nil else { return try byKey(after: position, budget: &budget) }
        var index = 0
        var key: DatabaseValue?
        if let position {
            // A position in a table the order does not hold (the rules changed meanwhile) goes on by
            // table and key.
            guard let found = sharedTables.firstIndex(of: position.table) else {
                return try byKey(after: position, budget: &budget)
            }
            index = found
            key = position.key
        }
        var rows: [SnapshotRow] = []
        while index < sharedTables.count, rows.count < limit, !budget.isSpent {
            let table = sharedTables[index]
            let count = budget.take(try store.rowSizes(in: space, table: table, after: key, limit: limit - rows.count))
            if count > 0 { rows += try store.rows(in: space, table: table, after: key, limit: count) }
            index += 1
            key = nil
        }
        return rows
    }
}
