/// Reads whole transactions from `turso_cdc` with the stamps sync recorded for them.
enum LocalLogReader {
    /// The transactions whose rows come after `changeID`, about `rowLimit` rows' worth (whole
    /// transactions only), and the `change_id` read through.
    ///
    /// Changes to tables that do not sync are left out; a transaction without any is still returned
    /// (with no changes), so that callers move past it.
    static func transactions(
        after changeID: Int64, rowLimit: Int, tables: [String: SyncedTable], on connection: Connection
    ) throws -> (transactions: [LocalTransaction], readThrough: Int64) {
        let statement = try connection.cachedStatement("""
            SELECT c.change_id, c.change_txn_id, c.change_type, c.table_name, c."before", c."after", c.updates,
                   t.stamp, t.writer, t.remote, c.change_time
            FROM turso_cdc c LEFT JOIN boutique_sync_txn t ON t.change_txn_id = c.change_txn_id
            WHERE c.change_id > ? ORDER BY c.change_id
            """)
        defer { try? statement.reset() }
        try statement.bind(changeID, at: 1)
        var transactions: [LocalTransaction] = []
        var changes: [LocalTransaction.LoggedRowChange] = []
        var readThrough = changeID
        var rows = 0
        var lastName: [UInt8] = []
        var lastTable: SyncedTable?
        while try statement.step() {
            rows += 1
            let id = statement.int64(at: 0)
            let type = statement.int64(at: 2)
            if type == 2 {
                let transactionID = statement.isNull(at: 1) ? id : statement.int64(at: 1)
                readThrough = id
                // A lone COMMIT row marks where the log was pruned; it is no transaction.
                if !(changes.isEmpty && transactionID == id) {
                    var stamp: SyncStamp?
                    if !statement.isNull(at: 7) {
                        stamp = SyncStamp(
                            time: HybridTimestamp(rawValue: UInt64(bitPattern: statement.int64(at: 7))),
                            replica: try statement.string(at: 8))
                    }
                    let mark = TransactionStamp.Mark(rawValue: Int(statement.int64(at: 9)))
                    transactions.append(LocalTransaction(
                        id: transactionID, commitID: id, commitTime: statement.int64(at: 10), stamp: stamp,
                        isRemote: mark == .remote, isRefused: mark == .refused, changes: changes))
                }
                changes.removeAll()
                if rows >= rowLimit { break }
                continue
            }
            guard !statement.isNull(at: 3) else { continue }
            // Most rows name the table of the row before: its bytes are compared instead of making,
            // lowercasing and looking up a string per row.
            let sameTable = statement.withUnsafeBlob(at: 3) { $0.elementsEqual(lastName) }
            if !sameTable {
                lastName = statement.blob(at: 3)
                lastTable = tables[try statement.string(at: 3).lowercased()]
            }
            guard let table = lastTable else { continue }
            let kind: SyncChange.Kind = type == 1 ? .insert : type == -1 ? .delete : .update
            let before = try record(statement, 4)
            let after = try record(statement, 5)
            var assigned: [Int]?
            if let updates = try record(statement, 6) {
                let count = updates.count / 2
                assigned = (0..<count).filter { updates[$0] == .integer(1) }
            }
            changes.append(.init(table: table, kind: kind, before: before, after: after, assigned: assigned))
        }
        return (transactions, readThrough)
    }

    private static func record(_ statement: Statement, _ index: Int32) throws -> [DatabaseValue]? {
        guard !statement.isNull(at: index) else { return nil }
        do {
            return try statement.withUnsafeBlob(at: index) { (bytes) throws(RecordFormatError) in try RecordDecoder.decode(bytes) }
        } catch {
            throw BoutiqueError.decoding(.init(
                table: "turso_cdc", column: "record", expectedType: "a SQLite record", found: String(describing: error)))
        }
    }
}
