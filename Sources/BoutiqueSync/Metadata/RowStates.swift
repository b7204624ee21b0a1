/// The merge states of synced rows in `boutique_sync_row`, read and written one row at a time or many
/// to a statement: every statement on that table is here.
///
/// The three statements a pulled change needs are prepared once and kept: a large pull runs them
/// tens of thousands of times, and looking them up by their text each time showed in profiles.
struct RowStates {
    let sql: SQLRunner
    private let select: Statement
    private let insert: Statement
    private let replace: Statement

    init(sql: SQLRunner) throws {
        self.sql = sql
        select = try sql.connection.cachedStatement("SELECT state FROM boutique_sync_row WHERE tbl = ? AND key = ?")
        insert = try sql.connection.cachedStatement(
            "INSERT INTO boutique_sync_row(tbl, key, state) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
        replace = try sql.connection.cachedStatement("INSERT OR REPLACE INTO boutique_sync_row(tbl, key, state) VALUES (?, ?, ?)")
    }

    func state(table: String, key: DatabaseValue) throws -> RowRegister? {
        defer { try? select.reset() }
        try select.bind(table, at: 1)
        try select.bind(key, at: 2)
        guard try select.step(), select.columnType(at: 0) == .blob else { return nil }
        return try RowRegister(record: select.blob(at: 0))
    }

    func setState(_ state: RowRegister, table: String, key: DatabaseValue) throws {
        try write(replace, state, table: table, key: key)
    }

    /// Forgets the state of a row: nothing is known of it any more.
    func removeState(table: String, key: DatabaseValue) throws {
        try sql.run("DELETE FROM boutique_sync_row WHERE tbl = ? AND key = ?", [.text(table), key])
    }

    private func write(_ statement: Statement, _ state: RowRegister, table: String, key: DatabaseValue) throws {
        defer { try? statement.reset() }
        try statement.bind(table, at: 1)
        try statement.bind(key, at: 2)
        try statement.bind(state.record(), at: 3)
        try statement.run()
    }

    /// Stores `state` when the row has none yet and returns it; `nil` (nothing written) when it has one.
    func insertIfNew(_ state: RowRegister, table: String, key: DatabaseValue) throws -> RowRegister? {
        try write(insert, state, table: table, key: key)
        return sql.connection.changes == 1 ? state : nil
    }

    /// The states of the rows of `table` with `keys` that have one, read a few hundred to a statement.
    func states(table: String, keys: [DatabaseValue]) throws -> [DatabaseValue: RowRegister] {
        var found: [DatabaseValue: RowRegister] = [:]
        var start = 0
        while start < keys.count {
            let chunk = keys[start..<min(start + 400, keys.count)]
            start += chunk.count
            let text = "SELECT key, state FROM boutique_sync_row WHERE tbl = ? AND key IN ("
                + Array(repeating: "?", count: chunk.count).joined(separator: ", ") + ")"
            let statement = try sql.connection.cachedStatement(text)
            defer { try? statement.reset() }
            try statement.bind(table, at: 1)
            var index: Int32 = 2
            for key in chunk {
                try statement.bind(key, at: index)
                index += 1
            }
            while try statement.step() {
                guard statement.columnType(at: 1) == .blob else { continue }
                found[try statement.value(at: 0)] = try RowRegister(record: statement.blob(at: 1))
            }
        }
        return found
    }

    /// How many states one statement writes.
    static let rowsPerWrite = 100

    /// Writes states, ``rowsPerWrite`` to a statement: each row's record is its range of `records`, bound
    /// in place.
    func write(_ rows: [(table: String, key: DatabaseValue, record: Range<Int>)], records: RowRecordBuffer) throws {
        try records.bytes.withUnsafeBytes { bytes in
            var start = 0
            while start < rows.count {
                let chunk = rows[start..<min(start + Self.rowsPerWrite, rows.count)]
                start += chunk.count
                let statement = try sql.connection.cachedStatement(
                    chunk.count == Self.rowsPerWrite ? Self.fullWrite : Self.writeSQL(rows: chunk.count))
                defer {
                    // Nothing may keep pointing into the buffer once this closure returns.
                    try? statement.reset()
                    try? statement.clearBindings()
                }
                var index: Int32 = 1
                for row in chunk {
                    try statement.bind(row.table, at: index)
                    try statement.bind(row.key, at: index + 1)
                    try statement.bindNoCopy(UnsafeRawBufferPointer(rebasing: bytes[row.record]), at: index + 2)
                    index += 3
                }
                try statement.run()
            }
        }
    }

    private static let fullWrite = writeSQL(rows: rowsPerWrite)

    private static func writeSQL(rows: Int) -> String {
        "INSERT OR REPLACE INTO boutique_sync_row(tbl, key, state) VALUES "
            + Array(repeating: "(?, ?, ?)", count: rows).joined(separator: ", ")
    }

    /// Every state of `table`.
    func states(table: String) throws -> [(key: DatabaseValue, state: RowRegister)] {
        try Self.decode(sql.rows("SELECT key, state FROM boutique_sync_row WHERE tbl = ?", [.text(table)]))
    }

    /// The states of `table`'s rows that its table does not hold (a cascade took them, say).
    func statesWithoutRows(in table: SyncedTable) throws -> [(key: DatabaseValue, state: RowRegister)] {
        try Self.decode(sql.rows(
            """
            SELECT key, state FROM boutique_sync_row WHERE tbl = ? AND key NOT IN
            (SELECT \(SQLIdentifier.quote(table.keyColumn)) FROM \(SQLIdentifier.quote(table.name)))
            """,
            [.text(table.lowercasedName)]))
    }

    /// The states of `table`'s rows whose `column` holds what `valueSQL` gives (SQL of the local
    /// schema: `NULL` or the column's default), as the table shows them.
    func states(in table: SyncedTable, where column: String, is valueSQL: String) throws -> [(key: DatabaseValue, state: RowRegister)] {
        try Self.decode(sql.rows(
            """
            SELECT s.key, s.state FROM boutique_sync_row AS s JOIN \(SQLIdentifier.quote(table.name)) AS c
            ON c.\(SQLIdentifier.quote(table.keyColumn)) = s.key WHERE s.tbl = ? AND c.\(SQLIdentifier.quote(column)) IS \(valueSQL)
            """,
            [.text(table.lowercasedName)]))
    }

    /// The states of `table` whose rows no page of the bootstrap from `server` named
    /// (`boutique_sync_snapshot_seen`, see ``Rebootstrap``).
    func statesNotSeen(table: String, server: String) throws -> [(key: DatabaseValue, state: RowRegister)] {
        try Self.decode(sql.rows(
            """
            SELECT key, state FROM boutique_sync_row AS row WHERE tbl = ? AND NOT EXISTS
            (SELECT 1 FROM boutique_sync_snapshot_seen AS seen WHERE seen.server = ? AND seen.tbl = row.tbl AND seen.key = row.key)
            """,
            [.text(table), .text(server)]))
    }

    private static func decode(_ rows: [[DatabaseValue]]) throws -> [(key: DatabaseValue, state: RowRegister)] {
        try rows.compactMap { row in
            guard case .blob(let bytes) = row[1] else { return nil }
            return (row[0], try RowRegister(record: bytes))
        }
    }
}
