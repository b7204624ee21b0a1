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
        let orphans = try await database.write { conn -> [OrphanRow] in
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
                    touched: applier.touchedTables, deleted: applier.deletedTables, tables: tables, foreignKeys: foreignKeys, sql: sql)
                var state = try ServerState.read(server: server, sql)
                state.cursor = max(state.cursor, cursor)
                try state.write(server: server, sql)
                try sql.run(
                    "UPDATE boutique_sync_replica SET clock = max(clock, ?) WHERE singleton = 1",
                    [.integer(Int64(bitPattern: recorder.lastReading.rawValue))])
                return orphans
            }
        }
        if !orphans.isEmpty { try await deleteOrphans(orphans) }
    }

    /// Rows whose parent the merge removed are deleted as local changes, so that every device and the
    /// server converge on the same answer (the parent's delete takes its children, as a cascade would).
    func deleteOrphans(_ orphans: [OrphanRow]) async throws {
        let tables = self.tables
        try await database.write { conn in
            try conn.execute("PRAGMA defer_foreign_keys = ON")
            try OrphanRepair.deleteAsLocalChanges(orphans, tables: tables, sql: SQLRunner(conn))
        }
    }
}
