import BoutiqueSQLite

/// Reads committed transactions back from `turso_cdc`, whoever wrote them (BoutiqueDB or Turso).
///
/// ```swift
/// let (transactions, end) = try ChangeLogReader.transactions(after: 41, on: reader)
/// ```
///
/// Only whole transactions are returned: rows after the last COMMIT row read are left for the next
/// call. Records are decoded strictly; a malformed one is an error naming the change, not a guess.
package enum ChangeLogReader {
    /// The latest COMMIT row's id. A transaction always ends with its COMMIT row, so the search stops
    /// at the table's last row.
    static let latestCommitSQL = "SELECT change_id FROM turso_cdc WHERE change_type = 2 ORDER BY change_id DESC LIMIT 1"

    /// How many rows a call reads at most, finishing the transaction it is in.
    static let batchRows = 2_000

    /// The token of the latest commit in the log, ``ChangeToken/beginning`` for an empty or missing log.
    package static func latestToken(on connection: Connection) throws(SQLiteError) -> ChangeToken {
        guard try ChangeLogSchema.logExists(connection) else { return .beginning }
        guard case .integer(let id)? = try connection.fetchValue(latestCommitSQL) else { return .beginning }
        return ChangeToken(changeID: id)
    }

    /// The whole transactions committed after `token`, about ``batchRows`` rows' worth.
    ///
    /// - Throws: ``BoutiqueError/changesPruned(requested:oldestAvailable:)`` when the log was pruned past
    ///   `token` (the reader would miss changes), ``BoutiqueError/decoding(_:)`` for a malformed record.
    static func transactions(after token: ChangeToken, on connection: Connection) throws -> [ChangeTransaction] {
        guard try ChangeLogSchema.logExists(connection) else { return [] }
        let horizon = try ChangeLogPruning.horizon(on: connection)
        guard token.changeID >= horizon else {
            throw BoutiqueError.changesPruned(requested: token.changeID, oldestAvailable: horizon)
        }
        let statement = try connection.prepare(
            "SELECT change_id, change_time, change_txn_id, change_type, table_name, id, \"before\", \"after\", updates "
                + "FROM turso_cdc WHERE change_id > ? ORDER BY change_id")
        defer { statement.finalize() }
        try statement.bind(token.changeID, at: 1)
        var transactions: [ChangeTransaction] = []
        var current: [RowChange] = []
        var rowsRead = 0
        var columns = ColumnNames(connection: connection)
        while try statement.step() {
            rowsRead += 1
            let changeID = statement.int64(at: 0)
            let type = statement.int64(at: 3)
            if type == 2 {
                // A lone COMMIT row marks where pruning stopped; it is no transaction of its own.
                let transactionID = statement.isNull(at: 2) ? changeID : statement.int64(at: 2)
                if !(current.isEmpty && transactionID == changeID) {
                    transactions.append(ChangeTransaction(
                        token: ChangeToken(changeID: changeID), transactionID: transactionID,
                        time: statement.int64(at: 1), changes: current))
                }
                current.removeAll()
                if rowsRead >= batchRows { break }
                continue
            }
            current.append(try change(from: statement, changeID: changeID, type: type, columns: &columns))
        }
        return transactions
    }

    private static func change(
        from statement: Statement, changeID: Int64, type: Int64, columns: inout ColumnNames
    ) throws -> RowChange {
        let kind: RowChangeKind =
            switch type {
            case 1: .insert
            case -1: .delete
            default: .update
            }
        let table = try statement.isNull(at: 4) ? "" : statement.string(at: 4)
        let before = try record(statement, 6, changeID: changeID, table: table, name: "before")
        let after = try record(statement, 7, changeID: changeID, table: table, name: "after")
        var assigned: [Int]?
        if let updates = try record(statement, 8, changeID: changeID, table: table, name: "updates") {
            let count = updates.count / 2
            assigned = (0..<count).filter { updates[$0] == .integer(1) }
        }
        return RowChange(
            changeID: changeID, table: table, kind: kind, id: try statement.value(at: 5), before: before, after: after,
            assignedColumns: assigned, columns: try columns.of(table))
    }

    /// The values of the record in column `index`, `nil` when it is NULL.
    private static func record(
        _ statement: Statement, _ index: Int32, changeID: Int64, table: String, name: String
    ) throws -> [DatabaseValue]? {
        guard !statement.isNull(at: index) else { return nil }
        do {
            return try statement.withUnsafeBlob(at: index) { (bytes) throws(RecordFormatError) in
                try RecordDecoder.decode(bytes)
            }
        } catch {
            throw BoutiqueError.decoding(.init(
                table: "turso_cdc", column: name, expectedType: "a SQLite record of \(table) (change \(changeID))",
                found: String(describing: error)))
        }
    }

    /// The stored column names of each table, read once per call.
    private struct ColumnNames {
        let connection: Connection
        var known: [String: [String]?] = [:]

        init(connection: Connection) { self.connection = connection }

        mutating func of(_ table: String) throws -> [String]? {
            if let names = known[table] { return names }
            let names = try TableLayout.read(table, from: connection)?.storedColumnNames
            known[table] = names
            return names
        }
    }
}
