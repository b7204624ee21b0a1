/// Reads whole transactions from `turso_cdc` with the stamps sync recorded for them.
enum LocalLogReader {
    /// How large a transaction a read returns with its changes: larger ones come without them
    /// (``LocalTransaction/isOversized``), and their changes are read a slice at a time
    /// (``NettedTransactions``), so that no read holds a whole import in memory.
    struct Limits {
        /// The most change-log rows one transaction's changes may take.
        var changes: Int
        /// The most bytes of row images (the log's `before` and `after` records) one transaction's
        /// changes may take.
        var bytes: Int

        /// No limit: every transaction comes with its changes.
        static let none = Limits(changes: .max, bytes: .max)
        /// What sync reads outside pushes (folds, stamps): a few thousand rows, a few MiB.
        static let standard = Limits(changes: 4_096, bytes: 4 << 20)
    }

    /// The transactions whose rows come after `changeID`, about `rowLimit` rows' worth (whole
    /// transactions only), and the `change_id` read through.
    ///
    /// Changes to tables that do not sync are left out; a transaction without any is still returned
    /// (with no changes), so that callers move past it. A transaction past `limits` comes without its
    /// changes, marked oversized, and ends the read; so does one that would take the read past
    /// `limits.bytes` (it comes first in the next).
    static func transactions(
        after changeID: Int64, rowLimit: Int, limits: Limits = .none, tables: [String: SyncedTable], on connection: Connection
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
        var decoder = RowDecoder(tables: tables)
        // The transaction being read: where it starts, how many log rows and bytes it takes.
        var first: Int64?
        var transactionRows = 0
        var transactionBytes = 0
        var readBytes = 0
        var oversized = false
        while try statement.step() {
            let id = statement.int64(at: 0)
            let type = statement.int64(at: 2)
            if type == 2 {
                let transactionID = statement.isNull(at: 1) ? id : statement.int64(at: 1)
                // A lone COMMIT row marks where the log was pruned; it is no transaction.
                if !(changes.isEmpty && !oversized && transactionID == id) {
                    // A transaction that would take the read past its bytes waits for the next read,
                    // where it comes first (alone, when it is that large on its own).
                    if !transactions.isEmpty, readBytes + transactionBytes > limits.bytes { break }
                    var stamp: SyncStamp?
                    if !statement.isNull(at: 7) {
                        stamp = SyncStamp(
                            time: HybridTimestamp(rawValue: UInt64(bitPattern: statement.int64(at: 7))),
                            replica: try statement.string(at: 8))
                    }
                    let mark = TransactionStamp.Mark(rawValue: Int(statement.int64(at: 9)))
                    transactions.append(LocalTransaction(
                        id: transactionID, commitID: id, commitTime: statement.int64(at: 10), stamp: stamp,
                        isRemote: mark == .remote, isRefused: mark == .refused, changes: changes,
                        isOversized: oversized, firstChangeID: first ?? id))
                }
                readThrough = id
                readBytes += transactionBytes
                changes.removeAll()
                first = nil
                transactionRows = 0
                transactionBytes = 0
                if oversized { break }
                if rows >= rowLimit || readBytes >= limits.bytes { break }
                continue
            }
            rows += 1
            if first == nil { first = id }
            guard !oversized else { continue }
            transactionRows += 1
            transactionBytes += statement.blobLength(at: 4) + statement.blobLength(at: 5)
            if transactionRows > limits.changes || transactionBytes > limits.bytes {
                // Read on to the COMMIT row (for the stamp) without keeping anything more.
                oversized = true
                changes.removeAll()
                continue
            }
            if let change = try decoder.change(statement) { changes.append(change) }
        }
        return (transactions, readThrough)
    }

    /// The synced changes of one transaction's log rows after `changeID` up to its COMMIT row
    /// (`commitID`), at most `limit` log rows; and the `change_id` read through.
    static func changes(
        after changeID: Int64, before commitID: Int64, limit: Int, tables: [String: SyncedTable], on connection: Connection
    ) throws -> (changes: [LocalTransaction.LoggedRowChange], readThrough: Int64) {
        let statement = try connection.cachedStatement("""
            SELECT c.change_id, c.change_txn_id, c.change_type, c.table_name, c."before", c."after", c.updates
            FROM turso_cdc c WHERE c.change_id > ? AND c.change_id < ? ORDER BY c.change_id LIMIT ?
            """)
        defer { try? statement.reset() }
        try statement.bind(changeID, at: 1)
        try statement.bind(commitID, at: 2)
        try statement.bind(Int64(limit), at: 3)
        var decoder = RowDecoder(tables: tables)
        var changes: [LocalTransaction.LoggedRowChange] = []
        var readThrough = changeID
        while try statement.step() {
            readThrough = statement.int64(at: 0)
            if let change = try decoder.change(statement) { changes.append(change) }
        }
        return (changes, readThrough)
    }

    /// Turns log rows (`change_id, change_txn_id, change_type, table_name, before, after, updates`, in
    /// that order) into changes of synced tables.
    private struct RowDecoder {
        let tables: [String: SyncedTable]
        private var lastName: [UInt8] = []
        private var lastTable: SyncedTable?

        init(tables: [String: SyncedTable]) { self.tables = tables }

        /// The row's change, `nil` for a table that does not sync.
        mutating func change(_ statement: Statement) throws -> LocalTransaction.LoggedRowChange? {
            guard !statement.isNull(at: 3) else { return nil }
            // Most rows name the table of the row before: its bytes are compared instead of making,
            // lowercasing and looking up a string per row.
            let sameTable = statement.withUnsafeBlob(at: 3) { $0.elementsEqual(lastName) }
            if !sameTable {
                lastName = statement.blob(at: 3)
                lastTable = tables[try statement.string(at: 3).lowercased()]
            }
            guard let table = lastTable else { return nil }
            let type = statement.int64(at: 2)
            let kind: SyncChange.Kind = type == 1 ? .insert : type == -1 ? .delete : .update
            let before = try LocalLogReader.record(statement, 4)
            let after = try LocalLogReader.record(statement, 5)
            var assigned: [Int]?
            if let updates = try LocalLogReader.record(statement, 6) {
                let count = updates.count / 2
                assigned = (0..<count).filter { updates[$0] == .integer(1) }
            }
            return .init(table: table, kind: kind, before: before, after: after, assigned: assigned)
        }
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

extension Statement {
    /// The bytes of a BLOB column, 0 for NULL.
    fileprivate func blobLength(at index: Int32) -> Int {
        isNull(at: index) ? 0 : withUnsafeBlob(at: index) { $0.count }
    }
}
