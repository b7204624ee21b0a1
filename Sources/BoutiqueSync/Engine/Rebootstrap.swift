/// What a second bootstrap does beyond the first: the rows the server's pages named are noted
/// (``SnapshotSeenRows``) as the pages are merged, and the rows no page named are dropped at the end.
enum Rebootstrap {
    /// Removes rows the server no longer has (it collected their tombstones while this device was
    /// away): those no page named, except rows whose latest write is a local one the server has not
    /// acknowledged yet.
    static func dropRowsTheServerForgot(tables: [String: SyncedTable], server: String, sql: SQLRunner) throws -> Set<String> {
        var deleted: Set<String> = []
        let acknowledged = try ServerState.read(server: server, sql).acknowledged
        var pending: Set<SyncStamp> = []
        let unacknowledged = TransactionStamp.where { $0.mark == TransactionStamp.Mark.local && $0.transactionID > acknowledged }
        for stamped in try unacknowledged.fetchAll(sql.connection) {
            pending.insert(stamped.syncStamp)
        }
        let projector = RowProjector(sql: sql)
        let states = try RowStates(sql: sql)
        for (name, table) in tables.sorted(by: { $0.key < $1.key }) {
            // Only the forgotten rows are read: usually none, never the table.
            for (key, state) in try states.statesNotSeen(table: name, server: server) {
                if let latest = state.latestStamp, pending.contains(latest) { continue }
                try projector.delete(key: key, table: table)
                try states.removeState(table: name, key: key)
                deleted.insert(name)
            }
        }
        return deleted
    }
}
