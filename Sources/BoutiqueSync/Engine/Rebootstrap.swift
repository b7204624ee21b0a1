/// What a second bootstrap does beyond the first.
enum Rebootstrap {
    /// Removes rows the server no longer has (it collected their tombstones while this device was
    /// away), except rows whose latest write is a local one the server has not acknowledged yet.
    static func dropRowsTheServerForgot(
        keeping seen: Set<SnapshotIdentity>, tables: [String: SyncedTable], server: String, sql: SQLRunner
    ) throws -> Set<String> {
        var deleted: Set<String> = []
        let acknowledged = try ServerState.read(server: server, sql).acknowledged
        var pending: Set<SyncStamp> = []
        for row in try sql.rows(
            "SELECT stamp, writer FROM boutique_sync_txn WHERE remote = 0 AND change_txn_id > ?", [.integer(acknowledged)])
        {
            guard case .integer(let time) = row[0], case .text(let writer) = row[1] else { continue }
            pending.insert(SyncStamp(time: HybridTimestamp(rawValue: UInt64(bitPattern: time)), replica: writer))
        }
        let states = try RowStates(sql: sql)
        for (name, table) in tables {
            for (key, state) in try states.states(table: name) where !seen.contains(SnapshotIdentity(table: name, key: key)) {
                if let latest = state.latestStamp, pending.contains(latest) { continue }
                try RowProjector(sql: sql).delete(key: key, table: table)
                try sql.run("DELETE FROM boutique_sync_row WHERE tbl = ? AND key = ?", [.text(name), key])
                deleted.insert(name)
            }
        }
        return deleted
    }
}
