/// The rows a second bootstrap's pages named, as `boutique_sync_snapshot_seen` keeps them for one
/// server: noted as the pages are merged, each in its page's transaction, so the set costs no memory
/// however many rows there are, and a bootstrap resumed after a crash still knows the pages merged
/// before it. `RowStates.statesNotSeen(table:server:)` reads the rows no page named.
///
/// ```swift
/// let seen = SnapshotSeenRows(server: server, sql: sql)
/// try seen.note(page.rows)
/// try seen.clear()
/// ```
struct SnapshotSeenRows {
    let server: String
    let sql: SQLRunner

    /// Notes the rows of a page as named by the server.
    func note(_ rows: [SnapshotRow]) throws {
        for row in rows {
            try sql.run(
                "INSERT OR IGNORE INTO boutique_sync_snapshot_seen(server, tbl, key) VALUES (?, ?, ?)",
                [.text(server), .text(RemoteApplier.lowercased(row.table)), row.key])
        }
    }

    /// Forgets the rows noted (before a bootstrap starts, and once it ends).
    func clear() throws {
        try sql.run("DELETE FROM boutique_sync_snapshot_seen WHERE server = ?", [.text(server)])
    }
}
