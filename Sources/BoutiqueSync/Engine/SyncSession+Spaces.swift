extension SyncSession {
    /// Moves in a space the user joined at `sequence`: pages through its rows with snapshot requests for
    /// that space, merging each page in its own remote transaction, then moves the cursor to `sequence`.
    /// Returns the rows received.
    ///
    /// The rows are the space's current state, newer than the point it was joined at; the pull goes on
    /// from that point, and merging its older changes again changes nothing. A device stopped halfway
    /// keeps the pages it merged, and the next pull (from before `sequence`) tells it to move the space
    /// in again.
    func moveIn(_ space: SyncSpace, at sequence: Int64) async throws -> Int {
        var after: SnapshotPosition?
        var received = 0
        repeat {
            let request = SnapshotRequest(replica: replica, after: after, limit: Self.snapshotPageSize, space: space)
            let span = ReplySpan(askedAt: options.now())
            let changes = historyChanges
            let page = try await send { try await transport.snapshot(request) }
            // The server's log is another history now (a restored store): `sequence` was the old
            // one's, and the bootstrap the file starts over with brings the space's rows.
            guard historyChanges == changes else { return received }
            try await observeServerTime(page.serverTime, span)
            if let reason = page.reason { throw await refused(page.refusal, reason, fallback: "snapshot refused") }
            try await mergeMovedIn(page.rows, last: page.next == nil, cursor: sequence)
            received += page.rows.count
            after = page.next
        } while after != nil
        return received
    }

    /// Merges one page of a space moved in, in one remote transaction with foreign keys checked at its
    /// end; the last page moves the cursor.
    private func mergeMovedIn(_ rows: [SnapshotRow], last: Bool, cursor: Int64) async throws {
        let tables = self.tables
        let replica = self.replica
        let server = serverID
        let foreignKeys = self.foreignKeys
        let (orphans, losses) = try await database.write(origin: .remote) { conn -> ([OrphanRow], [SyncLoss]) in
            try conn.execute("PRAGMA defer_foreign_keys = ON")
            let sql = SQLRunner(conn)
            try LocalFolder.fold(tables: tables, replica: replica, unmergeable: self.unmergeableTextEdits, on: conn.connection)
            try Self.advanceClock(past: rows.lazy.compactMap(\.state.latestStamp?.time).max(), sql)
            let labels = SpaceLabels(sql: sql)
            for row in rows { try labels.set(row.space, table: RemoteApplier.lowercased(row.table), key: row.key) }
            let merged = try SnapshotParents(tables: tables, sql: sql).sortOut(rows, server: server, last: last, sql: sql)
            var applier = try RemoteApplier(sql: sql, tables: tables)
            applier.ownLog = OwnLogPositions(server: server, sql: sql)
            try applier.apply(merged)
            let released = try WaitingRows(sql: sql).release(parentsIn: applier.touchedTables, synced: tables)
            var touched = applier.touchedTables.union(released)
            if last { touched.formUnion(tables.keys) }
            let orphans = try OrphanRepair.detach(
                touched: touched, deleted: applier.deletedTables, deletedKeys: applier.deletedKeys, tables: tables,
                foreignKeys: foreignKeys, sql: sql)
            if last {
                var state = try ServerState.read(server: server, sql)
                state.cursor = max(state.cursor, cursor)
                try state.write(server: server, sql)
            }
            return (orphans, applier.losses)
        }
        report(losses)
        if !orphans.isEmpty { try await repairOrphans(orphans) }
    }

    /// Sends a membership request and returns the space's members, or throws the server's refusal.
    ///
    /// A refusal goes to the caller only, not to ``BoutiqueSync/refusals`` or ``SyncStatus/lastRefusal``:
    /// those report what sync did on its own (a change put back), and this call changed nothing.
    func membership(_ action: MembershipAction, table: String, key: DatabaseValue, user: String?, role: SyncRole?) async throws
        -> [SyncMember]
    {
        let request = MembershipRequest(table: table, key: key, user: user, role: role)
        let span = ReplySpan(askedAt: options.now())
        let response = try await send(reporting: false) { try await transport.membership(request, action: action) }
        try await observeServerTime(response.serverTime, span)
        if let reason = response.reason {
            throw SyncRefusal(reason: response.refusal ?? .invalid, message: reason, table: request.table, key: key)
        }
        return response.members
    }
}
