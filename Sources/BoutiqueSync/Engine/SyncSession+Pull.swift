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
        let request = PullRequest(replica: replica, cursor: state.cursor, limit: options.pullLimit, waitMilliseconds: 0)
        let response = try await send { try await transport.pull(request) }
        return try await handlePull(response, requestedCursor: state.cursor)
    }

    /// Applies a pull's answer.
    func handlePull(_ response: PullResponse, requestedCursor: Int64) async throws -> PullStep {
        recorder.observe(response.serverTime)
        switch response.outcome {
        case .refused:
            throw BoutiqueError.syncRefused(reason: response.reason ?? "pull refused")
        case .resetRequired:
            return PullStep(applied: try await bootstrap(again: true), hasMore: true)
        case .changes:
            guard response.nextCursor >= requestedCursor else {
                throw BoutiqueError.syncRefused(reason: "the server's next cursor \(response.nextCursor) is before \(requestedCursor)")
            }
            if !response.changes.isEmpty || response.nextCursor != requestedCursor || !parkedChecked {
                try await applyRemote(response.changes, cursor: response.nextCursor, serverTime: response.serverTime)
                parkedChecked = true
            }
            return PullStep(applied: response.changes.count, hasMore: response.hasMore)
        }
    }

    /// Applies pulled changes and moves the cursor, in one local transaction marked remote, with
    /// foreign keys checked only at its end (a batch may hold a child before its parent).
    func applyRemote(_ changes: [ServerChange], cursor: Int64, serverTime: HybridTimestamp) async throws {
        let tables = self.tables
        let recorder = self.recorder
        let server = serverID
        let foreignKeys = self.foreignKeys
        let retry = !retriedRefusedRows
        retriedRefusedRows = true
        let (orphans, losses) = try await database.write { conn -> ([OrphanRow], [SyncLoss]) in
            try PullPageCache.enlarged(on: conn.connection) {
                recorder.markNextCommitRemote()
                try conn.execute("PRAGMA defer_foreign_keys = ON")
                let sql = SQLRunner(conn)
                try LocalFolder.fold(tables: tables, recorder: recorder, on: conn.connection)
                try ParkedValues.apply(tables: tables, retryingRefusedRows: retry, sql: sql)
                var applier = try RemoteApplier(sql: sql, tables: tables)
                // What this session wrote is in the states already (folded above).
                try applier.apply(changes.lazy.map(\.change).filter { $0.stamp.replica != recorder.writer }, expectedCount: changes.count)
                recorder.observe(changes.lazy.map(\.change.stamp.time).max().map { max($0, serverTime) } ?? serverTime)
                let orphans = try OrphanRepair.detach(
                    touched: applier.touchedTables, deleted: applier.deletedTables, deletedKeys: applier.deletedKeys, tables: tables,
                    foreignKeys: foreignKeys, sql: sql)
                var state = try ServerState.read(server: server, sql)
                state.cursor = max(state.cursor, cursor)
                try state.write(server: server, sql)
                try sql.run(
                    "UPDATE boutique_sync_replica SET clock = max(clock, ?) WHERE singleton = 1",
                    [.integer(Int64(bitPattern: recorder.lastReading.rawValue))])
                return (orphans, applier.losses)
            }
        }
        report(losses)
        if !orphans.isEmpty { try await repairOrphans(orphans) }
    }

    /// Rows left pointing at a deleted parent are repaired as local changes, so that every device and
    /// the server converge on the same answer (``OrphanRepair``); what that undoes of this device's
    /// work is reported once the repair commits.
    private func repairOrphans(_ orphans: [OrphanRow]) async throws {
        let tables = self.tables
        let losses = try await database.write { conn in
            try conn.execute("PRAGMA defer_foreign_keys = ON")
            return try OrphanRepair.writeAsLocalChanges(orphans, tables: tables, sql: SQLRunner(conn))
        }
        report(losses)
    }

    /// Hands committed losses to the app.
    func report(_ losses: [SyncLoss]) {
        for loss in losses { self.losses.send(loss) }
    }

    // MARK: Bootstrap

    /// Pages through the server's state and merges it in one local transaction, then pulls from the
    /// position the snapshot includes. `again` is a re-bootstrap: the server no longer keeps the log
    /// after this device's cursor, so rows it no longer has (their tombstones were collected) go too,
    /// except rows with local writes the server has not acknowledged.
    func bootstrap(again: Bool) async throws -> Int {
        bootstraps += 1
        guard bootstraps <= 3 else {
            throw BoutiqueError.syncRefused(reason: "the server keeps asking for a new bootstrap")
        }
        var rows: [SnapshotRow] = []
        var position: SnapshotPosition?
        var cursor: Int64?
        repeat {
            let request = SnapshotRequest(replica: replica, after: position, limit: 1_000)
            let page = try await send { try await transport.snapshot(request) }
            recorder.observe(page.serverTime)
            if let reason = page.reason { throw BoutiqueError.syncRefused(reason: reason) }
            if cursor == nil { cursor = page.cursor }
            rows.append(contentsOf: page.rows)
            position = page.next
        } while position != nil
        let snapshotCursor = cursor ?? 0
        let tables = self.tables
        let recorder = self.recorder
        let server = serverID
        let foreignKeys = self.foreignKeys
        let snapshot = rows
        let (orphans, losses) = try await database.write { conn -> ([OrphanRow], [SyncLoss]) in
            recorder.markNextCommitRemote()
            try conn.execute("PRAGMA defer_foreign_keys = ON")
            let sql = SQLRunner(conn)
            try LocalFolder.fold(tables: tables, recorder: recorder, on: conn.connection)
            var applier = try RemoteApplier(sql: sql, tables: tables)
            var seen: Set<SnapshotIdentity> = []
            for row in snapshot {
                seen.insert(SnapshotIdentity(table: row.table.lowercased(), key: row.key))
                if let latest = row.state.latestStamp { recorder.observe(latest.time) }
            }
            try applier.apply(snapshot)
            var deleted = applier.deletedTables
            if again {
                deleted.formUnion(try Rebootstrap.dropRowsTheServerForgot(keeping: seen, tables: tables, server: server, sql: sql))
            }
            let orphans = try OrphanRepair.detach(
                touched: applier.touchedTables.union(deleted), deleted: deleted, deletedKeys: applier.deletedKeys, tables: tables,
                foreignKeys: foreignKeys, sql: sql)
            var state = try ServerState.read(server: server, sql)
            state.cursor = max(state.cursor, snapshotCursor)
            state.bootstrapped = true
            try state.write(server: server, sql)
            try sql.run(
                "UPDATE boutique_sync_replica SET clock = max(clock, ?) WHERE singleton = 1",
                [.integer(Int64(bitPattern: recorder.lastReading.rawValue))])
            return (orphans, applier.losses)
        }
        report(losses)
        if !orphans.isEmpty { try await repairOrphans(orphans) }
        return rows.count
    }
}

/// A row of a snapshot by table and key.
struct SnapshotIdentity: Hashable, Sendable {
    let table: String
    let key: DatabaseValue
}
