/// The rows of a bootstrap's pages held back until their parent arrives, as
/// `boutique_sync_snapshot_waiting` keeps them for one server: each with its snapshot state (not
/// merged yet) and the parent it waits for.
///
/// ```swift
/// let waiting = SnapshotWaitingRows(server: server, sql: sql)
/// try waiting.hold(row, until: parent)
/// let released = try waiting.rows(waitingFor: parent)
/// ```
struct SnapshotWaitingRows {
    let server: String
    let sql: SQLRunner

    /// The rows waiting for `parent`.
    func rows(waitingFor parent: SnapshotIdentity) throws -> [SnapshotRow] {
        try Self.decode(sql.rows(
            "SELECT tbl, key, state FROM boutique_sync_snapshot_waiting WHERE server = ? AND parent_tbl = ? AND parent_key = ?",
            [.text(server), .text(parent.table), parent.key]))
    }

    /// Keeps `row` until `parent` arrives, replacing what waited for the row before.
    func hold(_ row: SnapshotRow, until parent: SnapshotIdentity) throws {
        try sql.run(
            """
            INSERT OR REPLACE INTO boutique_sync_snapshot_waiting(server, tbl, key, parent_tbl, parent_key, state)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [.text(server), .text(row.table), row.key, .text(parent.table), parent.key, .blob(row.state.record())])
    }

    /// Stops keeping the row of `table` with `key` (it merges now).
    func release(table: String, key: DatabaseValue) throws {
        try sql.run("DELETE FROM boutique_sync_snapshot_waiting WHERE server = ? AND tbl = ? AND key = ?", [.text(server), .text(table), key])
    }

    /// Every row still waiting, taken out (the last page merges them).
    func takeAll() throws -> [SnapshotRow] {
        let rows = try Self.decode(sql.rows("SELECT tbl, key, state FROM boutique_sync_snapshot_waiting WHERE server = ?", [.text(server)]))
        try removeAll()
        return rows
    }

    /// Forgets every row waiting (a bootstrap started over).
    func removeAll() throws {
        try sql.run("DELETE FROM boutique_sync_snapshot_waiting WHERE server = ?", [.text(server)])
    }

    private static func decode(_ rows: [[DatabaseValue]]) throws -> [SnapshotRow] {
        try rows.compactMap { row in
            guard case .text(let table) = row[0], case .blob(let bytes) = row[2] else { return nil }
            return SnapshotRow(table: table, key: row[1], state: try RowRegister(record: bytes))
        }
    }
}
