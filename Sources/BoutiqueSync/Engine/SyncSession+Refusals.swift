extension SyncSession {
    /// Undoes the transactions the server refused one by one, in one local transaction marked remote
    /// (nothing of it is pushed), and reports each refusal.
    ///
    /// Each refused transaction is marked so that neither push nor the fold takes it again; the rows it
    /// touched get the server's state back (what that discards of this device's other work is reported
    /// as a pull's merge reports it); local transactions after it are folded again on top of
    /// that state (they are the user's later work, still to be pushed), and the rows show the result.
    /// Children left without a parent (a refused insert of a parent) are deleted as a cascade would,
    /// as ``OrphanRepair`` does for a pull.
    func undoRefused(_ refusals: [PushRefusal]) async throws {
        guard !refusals.isEmpty else { return }
        let tables = self.tables
        let replica = self.replica
        let foreignKeys = self.foreignKeys
        let server = serverID
        let (orphans, written, losses) = try await database.write(origin: .remote) {
            conn -> ([OrphanRow], [Int64: (values: [String: DatabaseValue], row: [String: DatabaseValue])], [SyncLoss]) in
            var leftOut = false
            try conn.execute("PRAGMA defer_foreign_keys = ON")
            let sql = SQLRunner(conn)
            try LocalFolder.fold(tables: tables, replica: replica, unmergeable: self.unmergeableTextEdits, on: conn.connection)
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
            let withdrawn = try TransactionStamp.syncStamps(of: refusals.map(\.transactionID), sql)
            var touched: [(table: SyncedTable, key: DatabaseValue)] = []
            // What the refused writes held of each row they touched becomes the server's again; the
            // rest of the server's state is then merged as a pull's would be, and what it discards of
            // this device's other work is told (it would not be when the pull that carries it comes).
            var applier = try RemoteApplier(sql: sql, tables: tables)
            let positions = OwnLogPositions(server: server, sql: sql)
            applier.ownLog = positions
            var merged: [SnapshotRow] = []
            var shown: [(table: SyncedTable, key: DatabaseValue, state: RowRegister)] = []
            for refusal in refusals {
                for var row in refusal.rows {
                    let name = row.table.lowercased()
                    guard let table = tables[name] else { continue }
                    if let local = try states.state(table: name, key: row.key) {
                        if local.isVisible { shown.append((table, row.key, local)) }
                        var earlier = try SupersededCells.restoring(withdrawn: withdrawn, table: name, key: row.key, sql: sql)
                        // A text known lost (``CollaborativeTextCapture/repairDamaged``) waits for the
                        // snapshot: an earlier state of it holds the characters no other replica got.
                        earlier = earlier.filter { local.cells[$0.key]?.value != CollaborativeTextValue.awaitingSnapshot }
                        // An earlier edit a pulled write had beaten before the refused one outran that
                        // write: the pulled write comes back, and the edit is judged against it now
                        // (its change never arrives again).
                        let beaten = try OutrunArrivals.takeBeaten(
                            &earlier, in: local, withdrawn: withdrawn, table: name, key: row.key, positions: positions, sql: sql)
                        for (stamp, values) in beaten.sorted(by: { $0.key < $1.key }) {
                            applier.losses.append(SyncLoss(
                                table: name, key: row.key, kind: .editBeatenByConcurrentEdit, values: values, stamp: stamp,
                                row: local.isVisible ? local.visibleValues : [:]))
                        }
                        var undone = local.withdrawing(withdrawn, server: row.state, restoring: earlier)
                        // A refused text edit's characters live inside the merged text, under whatever
                        // later stamp it carries by now (a pulled edit's): each text comes back whole
                        // from the server, and the later local edits are folded onto it again below.
                        for column in table.collaborativeColumns where undone.cells[column]?.value != CollaborativeTextValue.awaitingSnapshot {
                            undone.cells[column] = row.state.cells[column]
                        }
                        try states.setState(undone, table: name, key: row.key)
                        row.state = try Self.leavingUndecided(row.state, local: undone, ownWrites: applier.ownWrites, positions: positions)
                    }
                    merged.append(row)
                    touched.append((table, row.key))
                }
            }
            try applier.apply(merged)
            try SupersededCells.withdraw(refusals.map(\.transactionID), withdrawn: withdrawn, sql: sql)
            // A row the device showed that the server's version has deleted: this device's edits of it
            // that the server kept are discarded by the delete (the merge saw the row gone already,
            // its existence having been the refused insert's, or the server's). A row that only the
            // refused insert made exist was deleted by nobody: the edits the server kept wait there
            // for a row, and are judged when an insert arrives (overwritten by one made without
            // them, ``SyncLoss/Kind/editBeatenByConcurrentEdit``).
            for (table, key, before) in shown {
                let name = table.lowercasedName
                let after = try states.state(table: name, key: key) ?? RowRegister()
                guard !after.isVisible, after.existence != nil || after.lastDelete != nil,
                    !applier.losses.contains(where: { $0.table == name && $0.key == key })
                else { continue }
                let inserted = before.existence.flatMap { withdrawn.contains($0.stamp) ? nil : $0.stamp }
                guard let edits = try applier.ownWrites.edits(of: after, since: inserted) else { continue }
                applier.losses.append(SyncLoss(
                    table: name, key: key, kind: .editBeatenByDelete, values: edits.values, stamp: edits.latest, row: before.visibleValues))
            }
            for refusal in refusals {
                // A row the server holds nothing of that this user may see: nothing of it stays.
                for row in refusal.absentRows {
                    let name = row.table.lowercased()
                    guard let table = tables[name] else { continue }
                    try states.removeState(table: name, key: row.key)
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
            if leftOut { try ServerState.requireBootstrap(server: server, sql) }
            if let first = refusals.map(\.transactionID).min() {
                if let folded = try ReplicaRecordRow.read(sql)?.foldedThrough, folded > first - 1 {
                    try ReplicaRecordRow.change(sql) { $0.foldedThrough = first - 1 }
                }
                try LocalFolder.fold(tables: tables, replica: replica, unmergeable: self.unmergeableTextEdits, on: conn.connection)
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
            let orphans = try OrphanRepair.detach(
                touched: names, deleted: names, tables: tables, foreignKeys: foreignKeys, parkingUnseenParents: true, sql: sql)
            return (orphans, written, applier.losses)
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
        report(losses)
    }

    /// The server's state of a row a refusal names, less its cells that beat an edit of this device's
    /// the server logged: whether their writers had pulled that edit is known only from the changes
    /// that carry them, which a pull brings, and which then tell whether the edit was lost
    /// (``SyncLoss/Kind/editBeatenByConcurrentEdit``). Merged now, they would arrive unjudged.
    static func leavingUndecided(
        _ server: RowRegister, local: RowRegister, ownWrites: OwnWrites, positions: OwnLogPositions
    ) throws -> RowRegister {
        var state = server
        for (name, beater) in server.cells {
            guard let mine = local.cells[name], local.isCurrent(mine), mine.stamp < beater.stamp, try ownWrites.contains(mine.stamp),
                try !ownWrites.contains(beater.stamp), try positions.knewInState(mine.stamp) != false
            else { continue }
            state.cells[name] = mine
        }
        return state
    }

    /// Removes the state of every row refused transaction `id` touched (netted first, when it was
    /// not), calling `body` with each.
    private nonisolated func forgetRows(
        of id: Int64, tables: [String: SyncedTable], _ sql: SQLRunner, _ body: (SyncedTable, DatabaseValue) -> Void
    ) throws {
        let read = try LocalLogReader.transactions(after: id - 1, rowLimit: 1, limits: .standard, tables: tables, on: sql.connection)
        guard let transaction = read.transactions.first, transaction.id == id else { return }
        let states = try RowStates(sql: sql)
        if transaction.isOversized {
            try NettedTransactions.prepare(transaction, tables: tables, sql)
            try NettedTransactions.forEachRow(of: id, tables: tables, sql) { table, key in
                try states.removeState(table: table.lowercasedName, key: key)
                body(table, key)
            }
        } else if let stamp = transaction.stamp {
            for change in transaction.syncChanges(stamp: stamp) {
                guard let table = tables[change.table] else { continue }
                try states.removeState(table: change.table, key: change.key)
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
        if row.isEmpty, let state = try states.state(table: name, key: refusal.key), state.isVisible {
            row = state.visibleValues(textColumns: table.collaborativeColumns)
        }
        return (table.declaredNames(values), table.declaredNames(row))
    }
}
