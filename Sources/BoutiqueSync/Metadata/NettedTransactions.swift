import BoutiqueDB

/// Local transactions too large to read whole (``LocalTransaction/isOversized``: an import of
/// thousands of rows in one `write`), netted to at most one change per row in
/// `boutique_sync_netted`, so that pushing, folding and stamping them again read a slice at a time.
///
/// The wire carries a transaction's net change of each row (``LocalTransaction/syncChanges(stamp:)``);
/// an oversized transaction is netted here once, reading its log rows a slice at a time, each row's
/// net change kept at the position its row was first changed. `boutique_sync_netted_txn` marks a
/// transaction netted whole. A transaction leaves both tables once the server acknowledged it and
/// it was folded into the row states.
enum NettedTransactions {
    /// The log rows one step of netting reads.
    static let sliceRows = 2_000

    /// Nets `transaction` unless it is netted already.
    static func prepare(_ transaction: LocalTransaction, tables: [String: SyncedTable], _ sql: SQLRunner) throws {
        let id = transaction.id
        if try sql.value("SELECT 1 FROM boutique_sync_netted_txn WHERE txn = ?", [.integer(id)]) != nil { return }
        try sql.run("DELETE FROM boutique_sync_netted WHERE txn = ?", [.integer(id)])
        let find = try sql.connection.cachedStatement("SELECT position, net FROM boutique_sync_netted WHERE txn = ? AND tbl = ? AND key = ?")
        let write = try sql.connection.cachedStatement(
            "INSERT OR REPLACE INTO boutique_sync_netted(txn, position, tbl, key, net) VALUES (?, ?, ?, ?, ?)")
        var after = transaction.firstChangeID - 1
        var next: Int64 = 1
        while true {
            let read = try LocalLogReader.changes(
                after: after, before: transaction.commitID, limit: sliceRows, tables: tables, on: sql.connection)
            for change in read.changes {
                let name = change.table.lowercasedName
                var positions: [DatabaseValue: Int64] = [:]
                let netted = try LocalTransaction.netting(change) { key in
                    defer { try? find.reset() }
                    try find.bind(id, at: 1)
                    try find.bind(name, at: 2)
                    try find.bind(key, at: 3)
                    guard try find.step() else { return nil }
                    positions[key] = find.int64(at: 0)
                    return try decode(find.blob(at: 1))
                }
                for (key, net) in netted {
                    let position: Int64
                    if let known = positions[key] {
                        position = known
                    } else if let known = try existingPosition(id, name, key, find) {
                        position = known
                    } else {
                        position = next
                        next += 1
                    }
                    defer { try? write.reset() }
                    try write.bind(id, at: 1)
                    try write.bind(position, at: 2)
                    try write.bind(name, at: 3)
                    try write.bind(key, at: 4)
                    try write.bind(encode(net), at: 5)
                    try write.run()
                }
            }
            guard read.readThrough > after else { break }
            after = read.readThrough
        }
        try sql.run(
            "INSERT INTO boutique_sync_netted_txn(txn, commit_id, positions) VALUES (?, ?, ?)",
            [.integer(id), .integer(transaction.commitID), .integer(next - 1)])
    }

    /// A slice of a netted transaction's changes as the wire carries them.
    struct Slice {
        /// The changes, in the transaction's order.
        var changes: [SyncChange]
        /// The position of the slice's last row (the `after` of the next slice).
        var through: Int64
        /// Whether no row comes after it.
        var isLast: Bool
    }

    /// The changes of netted transaction `id` after `position`: at most `limit` rows, and no more
    /// rows than `byteLimit` bytes of net changes hold (one at least).
    static func slice(
        of id: Int64, stamp: SyncStamp, after position: Int64, limit: Int, byteLimit: Int = .max, tables: [String: SyncedTable],
        _ sql: SQLRunner
    ) throws -> Slice {
        let statement = try sql.connection.cachedStatement(
            "SELECT position, tbl, key, net FROM boutique_sync_netted WHERE txn = ? AND position > ? ORDER BY position LIMIT ?")
        defer { try? statement.reset() }
        try statement.bind(id, at: 1)
        try statement.bind(position, at: 2)
        try statement.bind(Int64(limit) + 1, at: 3)
        var changes: [SyncChange] = []
        var through = position
        var rows = 0
        var bytes = 0
        while try statement.step() {
            let size = statement.withUnsafeBlob(at: 3) { $0.count }
            if rows == limit || (rows > 0 && bytes + size > byteLimit) { return Slice(changes: changes, through: through, isLast: false) }
            rows += 1
            bytes += size
            through = statement.int64(at: 0)
            let name = try statement.string(at: 1)
            guard let table = tables[name] else { continue }
            let net = try decode(statement.blob(at: 3))
            let change = LocalTransaction.NetChange(table: table, key: try statement.value(at: 2), net: net)
            guard var synced = change.syncChange(stamp: stamp) else { continue }
            if !table.collaborativeColumns.isEmpty {
                // The text operations the fold recorded, once it did (before, the plain values it diffs).
                var one = [synced]
                if try CollaborativeTextCapture.read(after: id - 1, through: id, sql).substitute(into: &one, transaction: id, tables: tables) {
                    synced = one[0]
                }
            }
            changes.append(synced)
        }
        return Slice(changes: changes, through: through, isLast: true)
    }

    /// Calls `body` with each slice of netted transaction `id`'s changes, in order.
    static func forEachSlice(
        of id: Int64, stamp: SyncStamp, tables: [String: SyncedTable], _ sql: SQLRunner, _ body: ([SyncChange]) throws -> Void
    ) throws {
        var position: Int64 = 0
        while true {
            let slice = try slice(of: id, stamp: stamp, after: position, limit: sliceRows, tables: tables, sql)
            try body(slice.changes)
            if slice.isLast { return }
            position = slice.through
        }
    }

    /// The digest of netted transaction `id` (``SyncDigest/of(id:stamp:changes:)`` of all its changes).
    static func digest(of id: Int64, stamp: SyncStamp, tables: [String: SyncedTable], _ sql: SQLRunner) throws -> UInt64 {
        var running = SyncDigest.Running(id: id, time: stamp.time)
        try forEachSlice(of: id, stamp: stamp, tables: tables, sql) { running.add($0) }
        return running.finished(writer: stamp.replica)
    }

    /// Calls `body` with the table and key of each row netted transaction `id` changed, in order.
    static func forEachRow(
        of id: Int64, tables: [String: SyncedTable], _ sql: SQLRunner, _ body: (SyncedTable, DatabaseValue) throws -> Void
    ) throws {
        var position: Int64 = 0
        while true {
            let rows = try sql.rows(
                "SELECT position, tbl, key FROM boutique_sync_netted WHERE txn = ? AND position > ? ORDER BY position LIMIT ?",
                [.integer(id), .integer(position), .integer(Int64(sliceRows))])
            for row in rows {
                guard case .text(let name) = row[1], let table = tables[name] else { continue }
                try body(table, row[2])
            }
            guard rows.count == sliceRows, let last = rows.last?[0].integerValue else { return }
            position = last
        }
    }

    /// How many rows netted transaction `id` changed (its changes on the wire, at most).
    static func rowCount(of id: Int64, _ sql: SQLRunner) throws -> Int {
        Int(try sql.value("SELECT count(*) FROM boutique_sync_netted WHERE txn = ?", [.integer(id)])?.integerValue ?? 0)
    }

    /// Forgets the netted transactions the server acknowledged (through `acknowledged`) that are
    /// folded into the row states (their COMMIT rows at or before `foldedThrough`).
    static func removeHandled(acknowledged: Int64, foldedThrough: Int64, _ sql: SQLRunner) throws {
        let handled = try sql.rows(
            "SELECT txn FROM boutique_sync_netted_txn WHERE txn <= ? AND commit_id <= ?",
            [.integer(acknowledged), .integer(foldedThrough)])
        for row in handled {
            try sql.run("DELETE FROM boutique_sync_netted WHERE txn = ?", [row[0]])
            try sql.run("DELETE FROM boutique_sync_netted_txn WHERE txn = ?", [row[0]])
        }
    }

    private static func existingPosition(_ id: Int64, _ name: String, _ key: DatabaseValue, _ find: Statement) throws -> Int64? {
        defer { try? find.reset() }
        try find.bind(id, at: 1)
        try find.bind(name, at: 2)
        try find.bind(key, at: 3)
        return try find.step() ? find.int64(at: 0) : nil
    }

    // MARK: Encoding

    /// A net change as one SQLite record: `i` and the row's values, `u` and (position, value) pairs,
    /// or `d`.
    private static func encode(_ net: LocalTransaction.NetChange.Net) -> [UInt8] {
        switch net {
        case .insert(let values):
            return RecordEncoder.encode([.text("i")] + values)
        case .update(let columns):
            var values: [DatabaseValue] = [.text("u")]
            for position in columns.keys.sorted() {
                values.append(.integer(Int64(position)))
                values.append(columns[position] ?? .null)
            }
            return RecordEncoder.encode(values)
        case .delete:
            return RecordEncoder.encode([.text("d")])
        }
    }

    private static func decode(_ bytes: [UInt8]) throws -> LocalTransaction.NetChange.Net {
        let values: [DatabaseValue]
        do { values = try RecordDecoder.decode(bytes) } catch { throw malformed(String(describing: error)) }
        switch values.first {
        case .text("i")?:
            return .insert(Array(values.dropFirst()))
        case .text("u")?:
            var columns: [Int: DatabaseValue] = [:]
            var index = 1
            while index + 1 < values.count {
                guard case .integer(let position) = values[index] else { throw malformed("column position \(values[index])") }
                columns[Int(position)] = values[index + 1]
                index += 2
            }
            return .update(columns)
        case .text("d")?:
            return .delete
        default:
            throw malformed("\(values.prefix(1))")
        }
    }

    private static func malformed(_ found: String) -> BoutiqueError {
        .decoding(.init(table: "boutique_sync_netted", column: "net", expectedType: "a net change", found: found))
    }
}
