extension SyncSession {
    /// Undoes the transactions the server refused one by one, in one local transaction marked remote
    /// (nothing of it is pushed), and reports each refusal.
    ///
    /// Each refused transaction is marked so that neither push nor the fold takes it again; the rows it
    /// touched get the server's state back; local transactions after it are folded again on top of
    /// that state (they are the user's later work, still to be pushed), and the rows show the result.
    /// Children left without a parent (a refused insert of a parent) are deleted as a cascade would,
    /// as ``OrphanRepair`` does for a pull.
    func undoRefused(_ refusals: [PushRefusal]) async throws {
        guard !refusals.isEmpty else { return }
        let tables = self.tables
        let replica = self.replica
        let foreignKeys = self.foreignKeys
        let server = serverID
        let (orphans, written) = try await database.write(origin: .remote) {
            conn -> ([OrphanRow], [Int64: (values: [String: DatabaseValue], row: [String: DatabaseValue])]) in
            var leftOut = false
            try conn.execute("PRAGMA defer_foreign_keys = ON")
            let sql = SQLRunner(conn)
            try LocalFolder.fold(tables: tables, replica: replica, on: conn.connection)
            let states = try RowStates(sql: sql)
            // What each refused transaction wrote to the row the refusal names, and the row as the
            // device showed it, read from the file before the server's version goes back.
            var written: [Int64: (values: [String: DatabaseValue], row: [String: DatabaseValue])] = [:]
            for refusal in refusals {
                written[refusal.transactionID] = try Self.refusedValues(refusal, tables: tables, states: states, on: conn.connection)
            }
            for refusal in refusals {
                try TransactionStamp.markRefused(refusal.transactionID, sql)
            }
            var touched: [(table: SyncedTable, key: DatabaseValue)] = []
            for refusal in refusals {
                for row in refusal.rows {
                    guard let table = tables[row.table.lowercased()] else { continue }
                    try states.setState(row.state, table: row.table.lowercased(), key: row.key)
                    touched.append((table, row.key))
                }
                for row in refusal.absentRows {
                    guard let table = tables[row.table.lowercased()] else { continue }
                    try sql.run("DELETE FROM boutique_sync_row WHERE tbl = ? AND key = ?", [.text(row.table.lowercased()), row.key])
                    touched.append((table, row.key))
                }
                if refusal.rowsLeftOut {
                    // Too many rows for the answer (a transaction sent in parts): every row it touched
                    // starts again from this device's later work alone, and a snapshot brings the
                    // server's version of each.
                    try forgetRows(of: refusal.transactionID, tables: tables, sql) { touched.append(($0, $1)) }
                    leftOut = true
                }
            }
            if leftOut { try sql.run("UPDATE boutique_sync_server SET bootstrapped = 0 WHERE server = ?", [.text(server)]) }
            if let first = refusals.map(\.transactionID).min() {
                if let folded = try ReplicaRecordRow.read(sql)?.foldedThrough, folded > first - 1 {
                    try ReplicaRecordRow.change(sql) { $0.foldedThrough = first - 1 }
                }
                try LocalFolder.fold(tables: tables, replica: replica, on: conn.connection)
            }
            let projector = RowProjector(sql: sql)
            for (table, key) in touched {
                if let state = try states.state(table: table.name.lowercased(), key: key) {
                    try projector.reproject(state, key: key, table: table)
                } else {
                    try projector.delete(key: key, table: table)
                }
            }
            let names = Set(touched.map { $0.table.name.lowercased() })
            // The server's version of a row may point at a parent this device has not pulled yet: it
            // waits for it, rather than being resolved as a child of a deleted parent (and that
            // resolution pushed).
            try WaitingRows(sql: sql).release(parentsIn: names, synced: tables)
            return (try OrphanRepair.detach(
                touched: names, deleted: names, tables: tables, foreignKeys: foreignKeys, parkingUnseenParents: true, sql: sql), written)
        }
        // Refused transactions are no longer pending, though no new transaction says so.
        await pendingTally.invalidate()
        if !orphans.isEmpty { try await repairOrphans(orphans) }
        for refusal in refusals {
            var report = SyncRefusal(
                reason: refusal.reason, message: refusal.message, transactionID: refusal.transactionID, table: refusal.table,
                key: refusal.key)
            if let written = written[refusal.transactionID] {
                report.values = written.values
                report.row = written.row
            }
            self.refusals.send(report)
            await reporter?.refusal(report)
        }
    }

    /// Removes the state of every row refused transaction `id` touched (netted first, when it was
    /// not), calling `body` with each.
    private nonisolated func forgetRows(
        of id: Int64, tables: [String: SyncedTable], _ sql: SQLRunner, _ body: (SyncedTable, DatabaseValue) -> Void
    ) throws {
        let read = try LocalLogReader.transactions(after: id - 1, rowLimit: 1, limits: .standard, tables: tables, on: sql.connection)
        guard let transaction = read.transactions.first, transaction.id == id else { return }
        if transaction.isOversized {
            try NettedTransactions.prepare(transaction, tables: tables, sql)
            try NettedTransactions.forEachRow(of: id, tables: tables, sql) { table, key in
                try sql.run("DELETE FROM boutique_sync_row WHERE tbl = ? AND key = ?", [.text(table.lowercasedName), key])
                body(table, key)
            }
        } else if let stamp = transaction.stamp {
            for change in transaction.syncChanges(stamp: stamp) {
                guard let table = tables[change.table] else { continue }
                try sql.run("DELETE FROM boutique_sync_row WHERE tbl = ? AND key = ?", [.text(change.table), change.key])
                body(table, change.key)
            }
        }
    }

    /// What the refused transaction `refusal` names wrote to its row (from the file's own log) and the
    /// row as the device shows it (its state, the transaction folded in), named as the table declares
    /// its columns. A refused delete wrote no values; the row is then as the delete found it.
    static func refusedValues(
        _ refusal: PushRefusal, tables: [String: SyncedTable], states: RowStates, on connection: Connection
    ) throws -> (values: [String: DatabaseValue], row: [String: DatabaseValue])? {
        let name = refusal.table.lowercased()
        guard let table = tables[name] else { return nil }
        let read = try LocalLogReader.transactions(
            after: refusal.transactionID - 1, rowLimit: 1, limits: .standard, tables: tables, on: connection)
        var values: [String: DatabaseValue] = [:]
        var row: [String: DatabaseValue] = [:]
        if let transaction = read.transactions.first(where: { $0.id == refusal.transactionID }) {
            let stamp = transaction.stamp ?? SyncStamp(time: HybridTimestamp(rawValue: 0), replica: "")
            // An oversized transaction's changes are read a slice at a time (it is netted: it went in parts).
            try LocalFolder.forEachChange(of: transaction, stamp: stamp, tables: tables, SQLRunner(connection)) { change in
                guard change.table == name, change.key == refusal.key else { return }
                for column in change.columns { values[column.name] = column.value }
            }
            // A delete's row: the values the log kept of it before the delete.
            for logged in transaction.changes where logged.table === table && logged.kind == .delete {
                guard let before = logged.before, before.indices.contains(table.keyPosition), before[table.keyPosition] == refusal.key
                else { continue }
                for (position, value) in before.enumerated() where position < table.lowercasedColumns.count {
                    row[table.lowercasedColumns[position]] = value
                }
            }
        }
        if row.isEmpty, let state = try states.state(table: name, key: refusal.key), state.isVisible { row = state.visibleValues }
        return (table.declaredNames(values), table.declaredNames(row))
    }
}
