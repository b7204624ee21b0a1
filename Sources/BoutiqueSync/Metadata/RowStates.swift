/// The merge states of synced rows in `boutique_sync_row`, read and written one row at a time.
struct RowStates {
    let sql: SQLRunner

    func state(table: String, key: DatabaseValue) throws -> RowRegister? {
        guard case .blob(let bytes)? = try sql.value(
            "SELECT state FROM boutique_sync_row WHERE tbl = ? AND key = ?", [.text(table), key])
        else { return nil }
        return try RowRegister(record: bytes)
    }

    func setState(_ state: RowRegister, table: String, key: DatabaseValue) throws {
        try sql.run(
            "INSERT OR REPLACE INTO boutique_sync_row(tbl, key, state) VALUES (?, ?, ?)", [.text(table), key, .blob(state.record())])
    }

    /// Every state of `table`.
    func states(table: String) throws -> [(key: DatabaseValue, state: RowRegister)] {
        try sql.rows("SELECT key, state FROM boutique_sync_row WHERE tbl = ?", [.text(table)]).compactMap { row in
            guard case .blob(let bytes) = row[1] else { return nil }
            return (row[0], try RowRegister(record: bytes))
        }
    }
}
