extension SyncSession {
    /// Gives new stamps, at the server-corrected time, to the local transactions not yet acknowledged
    /// that were stamped ahead of it: what a push refused for clock skew needs, so that a device whose
    /// clock ran far ahead (before it first talked to the server, or after its clock jumped) is not
    /// stuck until the wall clock catches up. Returns how many transactions it re-stamped.
    ///
    /// The new stamps keep the transactions' order and are taken from the corrected time the way
    /// BoutiqueDB takes them; the stamps those transactions left in the row states (folded first) are
    /// replaced too, and the file's clock goes back to the last new stamp. Stamps of other writers are
    /// not touched: only this device's unacknowledged work, which nobody else has seen, changes.
    func restampFutureTransactions() async throws -> Int {
        let server = serverID
        let tables = self.tables
        let replica = self.replica
        let corrected = HybridTimestamp(milliseconds: HybridLogicalClock.corrected(options.now(), by: recordedClockOffset ?? 0))
        return try await database.write { conn in
            let sql = SQLRunner(conn)
            try LocalFolder.fold(tables: tables, replica: replica, unmergeable: self.unmergeableTextEdits, on: conn.connection)
            let acknowledged = try ServerState.read(server: server, sql).acknowledged
            let after = Int64(bitPattern: corrected.rawValue)
            let ahead = try TransactionStamp
                .where { $0.mark == TransactionStamp.Mark.local && $0.transactionID > acknowledged && $0.stamp > after }
                .order { $0.transactionID }
                .fetchAll(conn.connection)
            guard !ahead.isEmpty else { return 0 }
            var clock = HybridLogicalClock(last: corrected)
            let states = try RowStates(sql: sql)
            for stamped in ahead {
                let id = stamped.transactionID
                let old = stamped.syncStamp
                let new = SyncStamp(time: clock.tick(now: corrected.milliseconds), replica: stamped.writer)
                let read = try LocalLogReader.transactions(
                    after: id - 1, rowLimit: 1, limits: .standard, tables: tables, on: conn.connection)
                if let transaction = read.transactions.first, transaction.id == id {
                    try LocalFolder.forEachChange(of: transaction, stamp: old, tables: tables, sql) { change in
                        guard var state = try states.state(table: change.table, key: change.key) else { return }
                        state.replaceStamp(old, with: new)
                        try states.setState(state, table: change.table, key: change.key)
                    }
                }
                let raw = Int64(bitPattern: new.time.rawValue)
                try TransactionStamp.update { $0.stamp = raw }.where { $0.transactionID == id }.execute(conn.connection)
            }
            let last = Int64(bitPattern: clock.last.rawValue)
            try ReplicaRecordRow.change(sql) { $0.clock = last }
            return ahead.count
        }
    }
}

extension RowRegister {
    /// Replaces every occurrence of `old` (a cell's, the existence's, the last delete's) with `new`.
    mutating func replaceStamp(_ old: SyncStamp, with new: SyncStamp) {
        if existence?.stamp == old { existence?.stamp = new }
        if lastDelete == old { lastDelete = new }
        for (name, cell) in cells where cell.stamp == old { cells[name]?.stamp = new }
    }
}
