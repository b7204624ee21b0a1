extension SyncSession {
    /// Brings a server restored from a backup back to what it had acknowledged to this file.
    ///
    /// The server's record of this replica (`watermark`, 0 for a replica it does not know) is behind
    /// the file's acknowledged id: a server's watermark only moves forward, so it lost the history
    /// after the backup it was restored from. What it acknowledged since is sent again, rebuilt from
    /// the row states (``OwnTransactionsFromStates``) because the change log pruned it: each
    /// transaction under its own id and stamp, so the merge makes every older value harmless where
    /// the server holds a newer one. The server's watermark reaches the file's acknowledged id again,
    /// and the push goes on from there as usual.
    ///
    /// The file's positions in the server's log (its cursor, where its writes went) belong to the
    /// history the server lost: the restored server logs other changes under the same positions. They
    /// are forgotten, and the next pull takes the server's state again (a bootstrap that merges, and
    /// drops nothing: rows the server lacks come back as the devices that wrote them push again).
    ///
    /// The file's positions are forgotten before the first batch goes: once the server is known
    /// restored they are wrong whatever happens next, and a device stopped halfway (or whose last
    /// answer was lost) must not keep them. Until the last answer, the file keeps its acknowledged id
    /// and digest: a device stopped halfway finds the server behind again, and sends again from where
    /// the server got to; one whose last answer was lost finds the server at its acknowledged id with
    /// the digest of the rebuilt transaction (``rebuiltDigest(at:)``), and takes it.
    ///
    /// A rebuilt transaction of more rows than a push carries goes in parts (``PushPart``, positions
    /// being its changes' indexes), to a server that takes them.
    ///
    /// The restored server may refuse what the original took (its memberships are the backup's): those
    /// refusals are undone and reported as a push's are, and the spaces it names are recorded.
    func resendToRestoredServer(watermark: Int64, digest: UInt64?, state: ServerState) async throws {
        let tables = self.tables
        let replica = self.replica
        let server = serverID
        let through = state.acknowledged
        // The states hold every local write first (a pull folds them too).
        try await database.write { conn in try LocalFolder.fold(tables: tables, replica: replica, unmergeable: self.unmergeableTextEdits, on: conn.connection) }
        try await forgetPositionsInLostHistory()
        let rebuilt = try await database.read { conn in
            try OwnTransactionsFromStates.transactions(after: watermark, through: through, tables: tables, SQLRunner(conn))
        }
        var base = watermark
        var baseDigest = digest
        let rowLimit = max(options.pushRowLimit, 1)
        // A transaction of more rows than a push carries goes in parts, to a server that said it
        // takes them (an empty push asks it first); `partFrom` is how many of its changes it holds.
        var takesParts = acceptsTransactionParts
        var asked = handshaken
        var partFrom = 0
        // Rounds since the last progress (a transaction or a part the server took): a server that
        // keeps answering without moving must not keep the device sending for ever.
        var stalled = 0
        while base < through {
            stalled += 1
            guard stalled < 1_000 else { throw BoutiqueError.syncRefused(reason: "the restored server keeps answering without progress") }
            guard let next = rebuilt.first(where: { $0.id > base }) else {
                throw BoutiqueError.syncRefused(
                    reason: "the server was restored to before transaction \(through), which this file can no longer rebuild")
            }
            var batch: [SyncTransaction] = []
            var part: PushPart?
            if next.changes.count > rowLimit, takesParts {
                let end = min(partFrom + rowLimit, next.changes.count)
                batch = [SyncTransaction(id: next.id, stamp: next.stamp, changes: Array(next.changes[partFrom..<end]))]
                part = PushPart(from: Int64(partFrom), through: Int64(end), isLast: end == next.changes.count, transactionDigest: next.digest)
            } else if next.changes.count > rowLimit, !asked {
                // Whether the server takes parts is not known yet: an empty push at the base asks.
            } else {
                // Whole transactions, up to the push's rows (a larger one goes alone, to a server
                // that takes no parts).
                var rows = 0
                for transaction in rebuilt where transaction.id > base {
                    guard batch.isEmpty || (rows + transaction.changes.count <= rowLimit && transaction.changes.count <= rowLimit) else { break }
                    batch.append(transaction)
                    rows += transaction.changes.count
                }
            }
            var request = PushRequest(
                replica: replica, baseTransactionID: base, baseDigest: baseDigest, schemaVersion: schemaVersion, transactions: batch,
                tables: tableShapes)
            request.replicaSecret = try await currentReplicaSecret()
            request.part = part
            let span = ReplySpan(askedAt: options.now())
            let response: PushResponse
            do {
                response = try await during(.pushing) { [request] in
                    try await send(reporting: false) { try await transport.push(request) }
                }
            } catch let refusal as SyncRefusal {
                // A transaction whole, to a server that takes no parts, larger than its body limit:
                // it cannot go until the limit is raised. Said so, rather than as a bare 413 each time.
                guard refusal.reason == .tooLarge else { throw refusal }
                let largest = batch.max { $0.changes.count < $1.changes.count }
                throw BoutiqueError.syncRefused(
                    reason: "the restored server refused transaction \(largest?.id ?? base + 1) sent again "
                        + "(\(largest?.changes.count ?? 0) rows) as larger than it takes; raise its request body limit")
            }
            guard serverID == server else { throw BoutiqueError.syncUnavailable(reason: "another server answered while this file sent again what the server lost") }
            try await observeServerTime(response.serverTime, span)
            guard response.outcome == .accepted, response.appliedThrough >= base else {
                throw await refused(
                    response.refusal, response.reason,
                    fallback: "the restored server did not take again what it had acknowledged (answered \(response.outcome.rawValue) at \(response.appliedThrough))")
            }
            asked = true
            takesParts = response.acceptsTransactionParts ?? false
            acceptsTransactionParts = takesParts
            // The restored server's rules are the backup's: what they refuse is undone and reported
            // before the server's progress is taken, as a push's refusals are.
            try await undoRefused(response.refusals ?? [])
            let logged = response.logged ?? []
            let spaces = response.spaces ?? []
            try await database.write { conn in
                let sql = SQLRunner(conn)
                let positions = OwnLogPositions(server: server, sql: sql)
                try positions.record(logged.filter { $0.sequence > 0 })
                try positions.recordNotLogged(logged.filter { $0.sequence <= 0 }.map(\.stamp))
                let labels = SpaceLabels(sql: sql)
                for row in spaces { try labels.set(row.space, table: row.table.lowercased(), key: row.key) }
            }
            if response.appliedThrough == base {
                // An answer to the question, or a part kept: the next part goes from where the server
                // holds the transaction.
                guard batch.isEmpty || part != nil else {
                    throw BoutiqueError.syncRefused(reason: "the restored server did not take again what it had acknowledged (kept \(base))")
                }
                if part != nil {
                    let held = Int(min(max(response.receivedThrough ?? 0, 0), Int64(next.changes.count)))
                    if held > partFrom { stalled = 0 }
                    partFrom = held
                }
                continue
            }
            partFrom = 0
            stalled = 0
            base = response.appliedThrough
            baseDigest = response.digest
        }
        let acknowledgedDigest = baseDigest
        try await database.write { conn in
            let sql = SQLRunner(conn)
            var current = try ServerState.read(server: server, sql)
            current.digest = acknowledgedDigest
            try current.write(server: server, sql)
        }
        await pendingTally.invalidate()
    }

    /// Forgets the file's positions in the server's log (its cursor, where its writes went), which
    /// belong to history the server lost, and asks for a bootstrap (one that merges: the pull takes it
    /// as after a restore).
    func forgetPositionsInLostHistory() async throws {
        let server = serverID
        try await database.write { conn in try ServerState.forgetPositionsInLostHistory(server: server, SQLRunner(conn)) }
    }

    /// The digest of the file's own transaction `id` as ``resendToRestoredServer(watermark:digest:state:)``
    /// rebuilds it, `nil` when the file has none: what a restored server that took the re-sent
    /// transactions holds at `id`, told from another copy's history when the answer was lost.
    func rebuiltDigest(at id: Int64) async throws -> UInt64? {
        guard id > 0 else { return nil }
        let tables = self.tables
        let replica = self.replica
        return try await database.write { conn in
            try LocalFolder.fold(tables: tables, replica: replica, unmergeable: self.unmergeableTextEdits, on: conn.connection)
            let rebuilt = try OwnTransactionsFromStates.transactions(after: id - 1, through: id, tables: tables, SQLRunner(conn))
            return rebuilt.first?.digest
        }
    }
}
