extension SyncSession {
    /// What one pull step did.
    struct PullStep: Sendable {
        var applied: Int
        var hasMore: Bool
    }

    /// Pulls one page (bootstrapping first when needed) and applies it.
    func pullOnce(wait: Duration) async throws -> PullStep {
        if !handshaken { _ = try await pushAll() }
        let state = try await serverState()
        if !state.bootstrapped {
            return PullStep(applied: try await bootstrap(again: false), hasMore: true)
        }
        let request = try await pullRequest(from: state, waitMilliseconds: 0)
        let server = serverID
        let changes = historyChanges
        let span = ReplySpan(askedAt: options.now())
        let response = try await send { [request] in try await transport.pull(request) }
        // Another server answers at this address now, or the server's log is another history (a
        // restored store): the cursor was the old one's. The next step starts again (a bootstrap).
        guard serverID == server, historyChanges == changes else { return PullStep(applied: 0, hasMore: true) }
        return try await handlePull(response, requestedCursor: state.cursor, span)
    }

    /// Applies a pull's answer.
    func handlePull(_ response: PullResponse, requestedCursor: Int64, _ span: ReplySpan) async throws -> PullStep {
        try await observeServerTime(response.serverTime, span)
        switch response.outcome {
        case .refused where response.refusal == .replicaTaken:
            // As for a push: a new replica id (and secret); the pull after it bootstraps again.
            try await resolveMismatch(watermark: 0, digest: nil, state: try await serverState())
            return PullStep(applied: 0, hasMore: true)
        case .refused:
            throw await refused(response.refusal, response.reason, fallback: "pull refused")
        case .resetRequired:
            // The cursor is older than the log the server keeps, or past its end (a server restored
            // from a backup). A push first: a restored server takes again what it lost of this file's
            // (``resendToRestoredServer(watermark:digest:state:)``), and asks for a bootstrap that
            // merges; only otherwise are the rows the snapshot leaves out dropped.
            handshaken = false
            _ = try await pushAll()
            var restored = try await !serverState().bootstrapped
            if let end = response.logEnd, requestedCursor > end, !restored {
                // Past the end of the log: the server lost history this device pulled (it wrote
                // nothing the server lost, or the push above found it). Its positions there are
                // forgotten, and the bootstrap merges: rows other devices wrote since the backup stay
                // until those devices send them again.
                restored = true
                try await forgetPositionsInLostHistory()
            }
            return PullStep(applied: try await bootstrap(again: !restored), hasMore: true)
        case .changes:
            guard response.nextCursor >= requestedCursor else {
                throw BoutiqueError.syncRefused(reason: "the server's next cursor \(response.nextCursor) is before \(requestedCursor)")
            }
            let asksAgain = try await checkWatermark(response)
            let events = response.events ?? []
            // A space joined is moved in before the cursor passes the point where it was joined: a
            // device stopped halfway is told again, and moves it in again.
            let joined = events.last.flatMap { $0.kind == .joined ? $0 : nil }
            let cursor = joined.map { min(response.nextCursor, $0.sequence - 1) } ?? response.nextCursor
            // A server that relays how far writers had pulled (``SyncChange/seen``) tells where this
            // file's own transactions are too (the two came together); it leaves the list out when the
            // page passes none.
            let placesOwn = response.ownTransactions != nil || response.changes.contains { $0.change.seen != nil }
            if !response.changes.isEmpty || !events.isEmpty || response.nextCursor != requestedCursor || !parkedChecked {
                try await during(response.changes.isEmpty && events.isEmpty ? nil : .pulling) {
                    try await applyRemote(
                        response.changes, events: events, own: response.ownTransactions ?? [], placesOwn: placesOwn,
                        cursor: max(cursor, requestedCursor))
                }
                parkedChecked = true
            }
            if let joined {
                let moved = try await moveIn(joined.space, at: joined.sequence)
                return PullStep(applied: response.changes.count + moved, hasMore: response.hasMore || asksAgain)
            }
            return PullStep(
                applied: response.changes.count + events.count { $0.kind == .rowArrived }, hasMore: response.hasMore || asksAgain)
        }
    }

    /// Compares the server's record of this replica with the file's: a record ahead of the file (or at
    /// the same id with another digest) means a copy of the file pushed under this replica id, or an
    /// acknowledgement was lost; ``resolveMismatch(watermark:digest:state:)`` tells which. A record
    /// behind the file is an answer older than the latest push, and says nothing.
    ///
    /// A watermark of this file's own history is not taken from a pull: the server may have refused
    /// transactions up to it (a copy of this file pushed them), which a pull does not tell. The session
    /// shakes hands again instead (`true`): its push from the file's base is answered with the
    /// watermark and those refusals, which ``resolveMismatch(watermark:digest:state:refusals:)`` undoes.
    private func checkWatermark(_ response: PullResponse) async throws -> Bool {
        guard let watermark = response.replicaWatermark else { return false }
        let state = try await serverState()
        guard watermark > state.acknowledged || (watermark == state.acknowledged && response.replicaDigest != state.digest) else {
            return false
        }
        if watermark > state.acknowledged, let held = try await heldDigest(at: watermark), held == response.replicaDigest {
            handshaken = false
            return true
        }
        try await resolveMismatch(watermark: watermark, digest: response.replicaDigest, state: state)
        return false
    }

    /// Applies pulled changes and moves the cursor, in one local transaction marked remote, with
    /// foreign keys checked only at its end (a batch may hold a child before its parent).
    ///
    /// `own` says where this file's own transactions the page passes are in the log: with each change's
    /// ``SyncChange/seen``, whether an edit of this device a change overwrites was one its writer had.
    /// `placesOwn` says that the server tells where the file's own transactions are (every one through
    /// the page's end, in this page or an earlier one).
    func applyRemote(
        _ changes: [ServerChange], events: [SpaceEvent] = [], own: [LoggedTransaction] = [], placesOwn: Bool = false, cursor: Int64
    ) async throws {
        let tables = self.tables
        let replica = self.replica
        let server = serverID
        let foreignKeys = self.foreignKeys
        let retry = !retriedRefusedRows
        retriedRefusedRows = true
        let (orphans, losses, departures, departedAttachments) = try await database.write(origin: .remote) {
            conn -> ([OrphanRow], [SyncLoss], [SyncDeparture], Set<String>) in
            try conn.execute("PRAGMA defer_foreign_keys = ON")
            // The local transactions not folded yet are folded with SQLite's usual page cache: they may
            // be an import of hundreds of thousands of rows, whose pages would fill the larger cache
            // the page's changes get (and keep the file's memory that high until it commits).
            try LocalFolder.fold(tables: tables, replica: replica, unmergeable: self.unmergeableTextEdits, on: conn.connection)
            return try PullPageCache.enlarged(on: conn.connection) {
                let sql = SQLRunner(conn)
                try ParkedValues.apply(tables: tables, retryingRefusedRows: retry, sql: sql)
                var applier = try RemoteApplier(sql: sql, tables: tables)
                let positions = OwnLogPositions(server: server, sql: sql)
                positions.unplacedAreAfterThePage = placesOwn
                try positions.record(own)
                // Writes of this file pushed under a replica id it gave up come back as others' changes.
                try positions.record(try changes.filter { try applier.ownWrites.contains($0.change.stamp) }
                    .map { LoggedTransaction(stamp: $0.change.stamp, sequence: $0.sequence) })
                applier.ownLog = positions
                try applier.apply(changes.lazy.map(\.change), expectedCount: changes.count)
                try Self.advanceClock(past: changes.lazy.map(\.change.stamp.time).max(), sql)
                let labels = SpaceLabels(sql: sql)
                for change in changes where change.space != nil {
                    try labels.set(change.space, table: RemoteApplier.lowercased(change.change.table), key: change.change.key)
                }
                let moved = try SpaceEvents.apply(events, applier: &applier, tables: tables, sql: sql)
                let released = try WaitingRows(sql: sql).release(parentsIn: applier.touchedTables.union(moved.written), synced: tables)
                let orphans = try OrphanRepair.detach(
                    touched: applier.touchedTables.union(released).union(moved.written).union(moved.removed),
                    deleted: applier.deletedTables.union(moved.removed),
                    deletedKeys: applier.deletedKeys, tables: tables, foreignKeys: foreignKeys, sql: sql)
                var state = try ServerState.read(server: server, sql)
                state.cursor = max(state.cursor, cursor)
                try state.write(server: server, sql)
                return (orphans, applier.losses, moved.departures, moved.attachments)
            }
        }
        try await AttachmentDeparture.removeBytes(of: departedAttachments, database: database)
        report(losses)
        for departure in departures { self.departures.send(departure) }
        if !orphans.isEmpty { try await repairOrphans(orphans) }
    }

    /// Rows left pointing at a deleted parent are repaired as local changes, so that every device and
    /// the server converge on the same answer (``OrphanRepair``); what that undoes of this device's
    /// work is reported once the repair commits.
    func repairOrphans(_ orphans: [OrphanRow]) async throws {
        let tables = self.tables
        let losses = try await database.write { conn in
            try conn.execute("PRAGMA defer_foreign_keys = ON")
            return try OrphanRepair.writeAsLocalChanges(orphans, tables: tables, sql: SQLRunner(conn))
        }
        report(losses)
    }

    /// Hands committed losses to the app, their values named as the tables declare their columns.
    func report(_ losses: [SyncLoss]) {
        for var loss in losses {
            if let table = tables[loss.table] {
                // A collaborative text column's value is kept as its merge state; the app sees its string.
                loss.values = table.declaredNames(table.shownValues(loss.values))
                loss.row = table.declaredNames(table.shownValues(loss.row))
            }
            self.losses.send(loss)
        }
    }
}
