/// The space of each synced row outside the common space, as the server said (`boutique_sync_space`):
/// what leaves the device with a space the user no longer sees.
///
/// The server tells a device where rows live in everything it sends on a server with rules: pulled
/// changes, snapshot rows, moves, and the answer to a push (for the device's own rows). A device of a
/// server without rules never writes here.
struct SpaceLabels {
    let sql: SQLRunner

    /// Notes the space of a row; the common space (or `nil`) removes the note.
    func set(_ space: SyncSpace?, table: String, key: DatabaseValue) throws {
        guard let space, !space.isCommon else {
            try forget(table: table, key: key)
            return
        }
        try sql.run("INSERT OR REPLACE INTO boutique_sync_space(tbl, key, space) VALUES (?, ?, ?)", [.text(table), key, .text(space.rawValue)])
    }

    /// Forgets a row's space.
    func forget(table: String, key: DatabaseValue) throws {
        try sql.run("DELETE FROM boutique_sync_space WHERE tbl = ? AND key = ?", [.text(table), key])
    }

    /// The rows noted in `space`.
    func rows(in space: SyncSpace) throws -> [(table: String, key: DatabaseValue)] {
        try sql.rows("SELECT tbl, key FROM boutique_sync_space WHERE space = ? ORDER BY tbl, key", [.text(space.rawValue)]).compactMap { row in
            guard case .text(let table) = row[0] else { return nil }
            return (table, row[1])
        }
    }

    /// Whether the server has placed any row in a space other than the common one: a server with rules,
    /// on which a parent the device has never seen may be one it may not see.
    func any() throws -> Bool {
        try sql.value("SELECT EXISTS (SELECT 1 FROM boutique_sync_space)")?.integerValue == 1
    }
}
