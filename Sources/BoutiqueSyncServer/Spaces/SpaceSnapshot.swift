/// A snapshot on a server with rules: the rows of the spaces the user is in now, space by space, then
/// by table and key within a space; or one space's rows, for a device moving in a space it joined.
///
/// Each space is read from the store's space index, so a page costs what it returns whatever the
/// tenant holds.
struct SpaceSnapshot {
    let store: any SyncStoreTransaction
    let user: String

    func page(_ request: SnapshotRequest, limit: Int, time: HybridTimestamp) throws -> SnapshotResponse {
        var spaces = Set(try store.memberships(of: user, at: nil).keys)
        spaces.insert(.common)
        spaces.insert(.private(user: user))
        var order = spaces.sorted()
        if let only = request.space {
            // A space the user is not in answers with no rows, exactly as an empty one does.
            order = spaces.contains(only) ? [only] : []
        }
        var rows: [SnapshotRow] = []
        let start = request.after.map { $0.space ?? .common }
        for space in order where start.map({ !(space < $0) }) ?? true {
            let from = space == start ? request.after : nil
            rows += try store.rows(in: space, after: from, limit: limit - rows.count)
            if rows.count == limit { break }
        }
        let next = rows.count == limit ? rows.last.map { SnapshotPosition(table: $0.table, key: $0.key, space: $0.space ?? .common) } : nil
        let total = request.after == nil || request.includeTotal == true ? try store.rowCount(in: order) : nil
        return SnapshotResponse(rows: rows, next: next, cursor: try store.latestSequence(), serverTime: time, totalRows: total)
    }
}
