extension SyncSession {
    /// Rows a snapshot page asks for.
    static let snapshotPageSize = 1_000

    /// Pages through the server's state, merging each page in its own local transaction, then leaves
    /// the pull to go on from the position the first page included. Returns the rows the merge changed:
    /// not those the device held already as the server does (its own rows pushed before the bootstrap,
    /// which every snapshot sends back).
    ///
    /// Each page's transaction also records how far the bootstrap got (``BootstrapResumePoint``), so a
    /// device killed halfway keeps the pages it merged and asks for the rest only; memory holds one
    /// page at a time. `again` is a re-bootstrap: the server no longer keeps the log after this device's
    /// cursor, so rows it no longer has (their tombstones were collected) go too, except rows with local
    /// writes the server has not acknowledged. A bootstrap under way is resumed whichever way it is
    /// asked for, unless it is asked to bootstrap again and the one under way is not: its earlier pages
    /// were not noted as seen, so it starts over.
    func bootstrap(again: Bool) async throws -> Int {
        try await during(.bootstrapping) { try await bootstrapPages(again: again) }
    }

    private func bootstrapPages(again: Bool) async throws -> Int {
        bootstraps += 1
        guard bootstraps <= 3 else {
            throw BoutiqueError.syncRefused(reason: "the server keeps asking for a new bootstrap")
        }
        var progress = try await serverState().bootstrap
        if again, progress?.again == false { progress = nil }
        let isAgain = again || progress?.again == true
        var after = progress?.after
        var cursor = progress?.cursor
        var done = progress?.rowsDone ?? 0
        var total = progress?.totalRows
        var changed = 0
        // A resumed bootstrap asks for the count again: the server may hold more rows by now.
        var coming = requestPage(after: after, includeTotal: after != nil ? true : nil)
        defer { coming.cancel() }
        repeat {
            let server = serverID
            let changes = historyChanges
            let page = try await send { try await coming.reply() }
            // Another server answers at this address now: its pages do not continue the old one's.
            guard serverID == server else { throw BoutiqueError.syncUnavailable(reason: "another server answered during the bootstrap") }
            // The server's log is another history now (a restored store): the bootstrap starts over,
            // from the restored server's state.
            guard historyChanges == changes else { return changed }
            try await observeServerTime(page.serverTime, coming.span)
            if let reason = page.reason { throw await refused(page.refusal, reason, fallback: "snapshot refused") }
            // The next page is asked for while this one merges: the server reads and sends it while
            // the device writes, instead of each waiting for the other. Memory holds two pages at most.
            if let position = page.next { coming = requestPage(after: position, includeTotal: nil) }
            if let count = page.totalRows { total = count }
            let snapshotCursor = cursor ?? page.cursor
            done += page.rows.count
            let next = page.next.map {
                BootstrapResumePoint(after: $0, cursor: snapshotCursor, again: isAgain, rowsDone: done, totalRows: total)
            }
            changed += try await mergeSnapshotPage(page.rows, first: after == nil, again: isAgain, cursor: snapshotCursor, next: next)
            // Rows so far (those merged before a restart included), of the total the server holds.
            await reporter?.progress(BootstrapProgress(rowsDone: done, totalRows: total))
            after = page.next
            cursor = snapshotCursor
        } while after != nil
        return changed
    }

    /// Sends the request for the page after `after` at once, to be awaited later.
    private func requestPage(after: SnapshotPosition?, includeTotal: Bool?) -> SnapshotPageRequest {
        let request = SnapshotRequest(replica: replica, after: after, limit: Self.snapshotPageSize, includeTotal: includeTotal)
        let transport = self.transport
        return SnapshotPageRequest(task: Task { try await transport.snapshot(request) }, span: ReplySpan(askedAt: options.now()))
    }

    /// Merges one page in one local transaction marked remote, with foreign keys checked at its end,
    /// and records `next` (or, after the last page, that the bootstrap finished) in the same
    /// transaction. Returns how many rows of the device's tables the merge changed.
    private func mergeSnapshotPage(
        _ rows: [SnapshotRow], first: Bool, again: Bool, cursor: Int64, next: BootstrapResumePoint?
    ) async throws -> Int {
        let tables = self.tables
        let replica = self.replica
        let server = serverID
        let foreignKeys = self.foreignKeys
        let (orphans, losses, changed) = try await database.write(origin: .remote) { conn -> ([OrphanRow], [SyncLoss], Int) in
            try conn.execute("PRAGMA defer_foreign_keys = ON")
            let sql = SQLRunner(conn)
            if first {
                // Left by a bootstrap that was started over.
                try SnapshotSeenRows(server: server, sql: sql).clear()
                try SnapshotWaitingRows(server: server, sql: sql).removeAll()
            }
            try LocalFolder.fold(tables: tables, replica: replica, unmergeable: self.unmergeableTextEdits, on: conn.connection)
            if again { try SnapshotSeenRows(server: server, sql: sql).note(rows) }
            try Self.advanceClock(past: rows.lazy.compactMap(\.state.latestStamp?.time).max(), sql)
            let last = next == nil
            let labels = SpaceLabels(sql: sql)
            for row in rows where row.space != nil { try labels.set(row.space, table: RemoteApplier.lowercased(row.table), key: row.key) }
            let merged = try SnapshotParents(tables: tables, sql: sql).sortOut(rows, server: server, last: last, sql: sql)
            var applier = try RemoteApplier(sql: sql, tables: tables)
            applier.ownLog = OwnLogPositions(server: server, sql: sql)
            try applier.apply(merged)
            var deleted = applier.deletedTables
            var touched = applier.touchedTables.union(try WaitingRows(sql: sql).release(parentsIn: applier.touchedTables, synced: tables))
            if last, again {
                deleted.formUnion(try Rebootstrap.dropRowsTheServerForgot(tables: tables, server: server, sql: sql))
                try SnapshotSeenRows(server: server, sql: sql).clear()
            }
            // The last page checks every table once: rows merged in earlier pages may lose their parent
            // to a row dropped now.
            if last { touched.formUnion(tables.keys) }
            let orphans = try OrphanRepair.detach(
                touched: touched.union(deleted), deleted: deleted, deletedKeys: applier.deletedKeys, tables: tables,
                foreignKeys: foreignKeys, sql: sql)
            var state = try ServerState.read(server: server, sql)
            state.bootstrap = next
            if last {
                // A bootstrap again starts from the snapshot's cursor, even one behind the file's: a
                // cursor past the end of the server's log (a server restored from a backup) would skip
                // what the server logs next under the positions it passed.
                state.cursor = again ? cursor : max(state.cursor, cursor)
                state.bootstrapped = true
                // Pages from here on tell where this file's own writes after the snapshot's cursor are,
                // not those it passed.
                try OwnLogPositions(server: server, sql: sql).notePassedBySnapshot()
            } else {
                // Until the last page, the device is not bootstrapped: a restart resumes the bootstrap
                // (a re-bootstrap's included) instead of pulling.
                state.bootstrapped = false
            }
            try state.write(server: server, sql)
            return (orphans, applier.losses, applier.appliedRows)
        }
        report(losses)
        if !orphans.isEmpty { try await repairOrphans(orphans) }
        return changed
    }
}

/// A snapshot page asked for and not awaited yet.
struct SnapshotPageRequest: Sendable {
    let task: Task<SnapshotResponse, any Error>
    /// When the request left; its answer's time is read when the page is taken.
    let span: ReplySpan

    /// The page; cancelling the caller cancels the request.
    func reply() async throws -> SnapshotResponse {
        try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
    }

    /// Abandons the request (a bootstrap that failed or ended does not wait for it).
    func cancel() { task.cancel() }
}

/// A row of a snapshot by table and key.
struct SnapshotIdentity: Hashable, Sendable {
    let table: String
    let key: DatabaseValue
}
