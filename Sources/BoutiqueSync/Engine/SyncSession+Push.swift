import Foundation

extension SyncSession {
    /// The most bytes of row images (as the change log keeps them) one push carries at first: a
    /// transaction larger than this, or than ``SyncOptions/pushRowLimit`` rows, goes in parts. A
    /// push's JSON is larger than the images (names, stamps, base64), well within a server's usual
    /// 16 MiB limit; a server that answers 413 gets pushes half as large, down to
    /// ``smallestPushBytes``.
    static let pushByteLimit = 4 << 20
    /// The smallest ``pushByteLimit`` a 413 brings pushes down to.
    static let smallestPushBytes = 16 << 10

    /// Pushes every local transaction after the acknowledged one, in batches of whole transactions;
    /// a transaction too large for one request goes in parts (``PushPart``), to a server that takes
    /// them. Returns the number of row changes the server newly acknowledged.
    func pushAll() async throws -> Int {
        var pushed = 0
        var attempts = 0
        var restamped = false
        // The refusal of a push the server's rules could not place (``SyncRefusal/Reason/rulesMismatch``),
        // thrown once the session has shaken hands with a push of nothing.
        var unplaced: SyncRefusal?
        while true {
            attempts += 1
            // Each round moves forward (an acknowledgement, a new replica id, a part kept); many rounds
            // without either mean a server that keeps answering without moving, which must not spin
            // for ever. A transaction in parts takes a round per part.
            guard attempts < 1_000 else { throw BoutiqueError.syncRefused(reason: "the server keeps answering pushes without progress") }
            let server = serverID
            let changes = historyChanges
            let from = scannedThrough
            let tables = self.tables
            let rowLimit = options.pushRowLimit
            // Whether a transaction can go in parts: only to a server that said it takes them (an
            // older one gets every transaction whole, as before).
            // Before the session's first answer a large transaction waits for it (an empty push goes).
            let limits = handshaken && !acceptsTransactionParts
                ? LocalLogReader.Limits.none : LocalLogReader.Limits(changes: max(rowLimit, 1), bytes: pushBytes)
            let ahead = largeAhead
            // Collaborative text is pushed as the operations a fold diffed each new value into: the
            // transactions are folded first.
            if hasCollaborativeText {
                let replica = self.replica
                try await database.write { conn in
                    try LocalFolder.fold(tables: tables, replica: replica, unmergeable: self.unmergeableTextEdits, on: conn.connection)
                    let sql = SQLRunner(conn)
                    try CollaborativeTextCapture.repairDamaged(
                        after: try ServerState.read(server: server, sql).acknowledged, unmergeable: self.unmergeableTextEdits, sql)
                }
            }
            // One read for what a round needs: the progress with the server, the id given up, the outbox.
            let (read, current, retired, retiredSecret) = try await database.read { conn in
                let sql = SQLRunner(conn)
                let state = try ServerState.read(server: server, sql)
                let retired = try ReplicaRecordRow.read(sql)?.retired
                // The proof that the id given up is this file's: the server retires it only with it.
                let retiredSecret = try retired.flatMap { try ReplicaSecrets.existingSecret(for: $0, sql) }
                let after = max(state.acknowledged, from)
                // A transaction going in parts was found from here before: its log rows are not read
                // again for each part (an import's hundreds of thousands).
                let read: (transactions: [LocalTransaction], readThrough: Int64)
                if let ahead, ahead.after == after {
                    read = ([ahead.transaction], ahead.readThrough)
                } else {
                    read = try LocalLogReader.transactions(after: after, rowLimit: rowLimit, limits: limits, tables: tables, on: conn.connection)
                }
                // How far the file had pulled when it made each write: a device whose edit it
                // overwrites learns whether the writer had that edit.
                var seen: [Int64: Int64] = [:]
                for transaction in read.transactions where !transaction.isRemote && !transaction.isRefused {
                    guard let stamp = transaction.stamp else { continue }
                    seen[transaction.id] = try PullMarks.seen(server: server, stamp: stamp, cursor: state.cursor, sql)
                }
                let text = try CollaborativeTextCapture.read(after: after, through: .max, sql)
                let folded = try ReplicaRecordRow.read(sql)?.foldedThrough ?? 0
                return (
                    (transactions: read.transactions, readThrough: read.readThrough, seen: seen, text: text, folded: folded), state, retired,
                    retiredSecret
                )
            }
            var state = current
            // The read starts at the acknowledged transaction's first row, so its other rows come back
            // as a transaction of the same id: the server has it.
            let local = read.transactions.filter { $0.id > state.acknowledged && !$0.isRemote && !$0.isRefused && $0.hasChanges }
            if local.contains(where: { $0.stamp == nil }) {
                try await stampUnstamped(local.filter { $0.stamp == nil })
                continue
            }
            // A transaction in parts goes alone, and only once the session knows the server takes parts.
            var inParts: (transaction: SyncTransaction, part: PushPart, rows: Int)?
            var outbox: [SyncTransaction]
            if unplaced != nil {
                // The server's rules could not place the transactions, and the session has not shaken
                // hands: a push of none does (it is answered as usual, and names the server), so that
                // pulls may go on while the transactions wait. The scan stays where it was.
                outbox = []
            } else if let large = local.first, large.isOversized, let stamp = large.stamp, handshaken {
                largeAhead = (max(state.acknowledged, from), large, read.readThrough)
                let part = try await nextPart(of: large, stamp: stamp, seen: read.seen[large.id])
                inParts = part
                outbox = [part.transaction]
            } else {
                // A transaction whose text operations are not recorded yet (written since the fold)
                // waits for the next round.
                var folded = true
                outbox = local.prefix { !$0.isOversized }.compactMap { transaction -> SyncTransaction? in
                    guard folded, let stamp = transaction.stamp else { return nil }
                    var changes = transaction.syncChanges(stamp: stamp)
                    // One folded before its operations were kept (by an app version without them) goes
                    // with its plain values, which merge as the text's starting point.
                    if hasCollaborativeText, !read.text.substitute(into: &changes, transaction: transaction.id, tables: tables),
                        transaction.commitID > read.folded
                    {
                        folded = false
                        return nil
                    }
                    if let seen = read.seen[transaction.id] {
                        for index in changes.indices { changes[index].seen = seen }
                    }
                    return changes.isEmpty ? nil : SyncTransaction(id: transaction.id, stamp: stamp, changes: changes)
                }
            }
            let exhausted = read.readThrough == max(state.acknowledged, from)
            // Everything read goes out this round, unless a large transaction waits behind it.
            let sendsAllRead = !local.contains { $0.isOversized } || inParts != nil
            if unplaced == nil, outbox.isEmpty {
                if sendsAllRead { scannedThrough = max(scannedThrough, read.readThrough) }
                if !exhausted, sendsAllRead { continue }
                // Nothing to push; the first push of a session still goes out, empty: its answer is
                // what tells a restored or cloned file from the original (and whether the server takes
                // transactions in parts).
                if handshaken, sendsAllRead { return pushed }
            }
            var request = PushRequest(
                replica: replica, baseTransactionID: state.acknowledged, baseDigest: state.digest, schemaVersion: schemaVersion,
                transactions: outbox, retiredReplica: retired, tables: handshaken ? nil : tableShapes)
            request.replicaSecret = try await currentReplicaSecret()
            request.retiredReplicaSecret = retiredSecret
            request.part = inParts?.part
            let response: PushResponse
            let span = ReplySpan(askedAt: options.now())
            do {
                response = try await during(outbox.isEmpty ? nil : .pushing) { [request] in
                    try await send(reporting: false) { try await transport.push(request) }
                }
            } catch let refusal as SyncRefusal {
                // A body larger than the server takes (its limit is the server's to choose): smaller
                // pushes, down to a floor, before it is a refusal.
                if refusal.reason == .tooLarge, pushBytes > Self.smallestPushBytes {
                    pushBytes /= 2
                    largeAhead = nil
                    continue
                }
                refusals.send(refusal)
                await reporter?.refusal(refusal)
                // Over HTTP a push the rules cannot place comes as the transport's refusal (a 503).
                guard refusal.reason == .rulesMismatch, unplaced == nil, !handshaken else { throw refusal }
                unplaced = refusal
                continue
            }
            // The reply named a server whose progress the file keeps under that name (reached before
            // through another address), or another server than the one it knew here: the round was
            // made from progress that is not this server's, and nothing of its answer may be recorded
            // (its cursor or bootstrap would pass for this server's). Again, from the progress kept
            // for it: a server that knew this replica found the base was not its history and applied
            // nothing; a new one that applied the round's transactions says so at the next round's
            // mismatch, whose digest the file recognises as its own.
            // The same when the reply told another history of the server's log (a restored store): the
            // round's progress holds positions the file just forgot.
            if serverID != server || historyChanges != changes, try await serverState().progress != current.progress { continue }
            try await observeServerTime(response.serverTime, span)
            switch response.outcome {
            case .accepted:
                guard response.appliedThrough >= state.acknowledged else {
                    throw BoutiqueError.syncRefused(reason: "the server acknowledged \(response.appliedThrough), before \(state.acknowledged)")
                }
                let firstAnswer = !handshaken
                handshaken = true
                acceptsTransactionParts = response.acceptsTransactionParts ?? false
                let refused = Set((response.refusals ?? []).map(\.transactionID))
                if let inParts {
                    if response.appliedThrough >= inParts.transaction.id {
                        partSent = nil
                        largeAhead = nil
                        if !refused.contains(inParts.transaction.id) { pushed += inParts.rows }
                    } else {
                        // A part kept (or one sent again): the next one goes from where the server holds it.
                        let through = response.receivedThrough ?? 0
                        if through > inParts.part.from { attempts = 0 }
                        partSent = (inParts.transaction.id, through)
                    }
                } else {
                    let newly = outbox.filter { $0.id > state.acknowledged && $0.id <= response.appliedThrough && !refused.contains($0.id) }
                    pushed += newly.reduce(0) { $0 + $1.changes.count }
                }
                // Undone before the acknowledgement is recorded: a crash in between leaves the refused
                // transactions marked, and the next push takes the server's watermark as a lost answer.
                try await undoRefused(response.refusals ?? [])
                // A refusal without its rows asks for a snapshot (``undoRefused(_:)`` marked it): the
                // progress written next must not say bootstrapped again.
                if response.refusals?.contains(where: \.rowsLeftOut) == true { state.bootstrapped = false }
                state.acknowledged = response.appliedThrough
                state.digest = response.digest
                // Writes the server applied without logging them lost everywhere there: nobody pulled them.
                let logged = response.logged ?? []
                try await writeServerState(
                    state, clearRetired: retired != nil, spaces: response.spaces ?? [], logged: logged.filter { $0.sequence > 0 },
                    notLogged: logged.filter { $0.sequence <= 0 }.map(\.stamp))
                if let last = outbox.last, response.appliedThrough >= last.id, sendsAllRead {
                    scannedThrough = max(scannedThrough, read.readThrough)
                }
                // The first answer may tell that the server takes parts: the transaction that could
                // not go whole goes now.
                if outbox.isEmpty, !(firstAnswer && !sendsAllRead && unplaced == nil) {
                    if let unplaced { throw unplaced }
                    return pushed
                }
            case .mismatch:
                partSent = nil
                largeAhead = nil
                if response.appliedThrough < state.acknowledged {
                    // Behind what it acknowledged to this file: the server was restored from a backup.
                    try await resendToRestoredServer(watermark: response.appliedThrough, digest: response.digest, state: state)
                } else if response.appliedThrough == state.acknowledged, let digest = response.digest,
                    try await rebuiltDigest(at: state.acknowledged) == digest
                {
                    // A restored server that took everything sent again, whose last answer was lost (or
                    // the file stopped before recording it): its digest is the rebuilt transaction's.
                    var updated = state
                    updated.digest = digest
                    try await writeServerState(updated, clearRetired: false)
                } else {
                    try await resolveMismatch(
                        watermark: response.appliedThrough, digest: response.digest, state: state, refusals: response.refusals)
                }
                scannedThrough = 0
            case .refused:
                partSent = nil
                largeAhead = nil
                // Stamps too far ahead of the server's clock: taken again at the corrected time, once.
                if response.refusal == .clockSkew, !restamped {
                    restamped = true
                    // Transactions the server already holds (an acknowledgement lost on the way) keep their stamps.
                    // Those it refused (told with the watermark) are undone first, as after a mismatch.
                    if response.appliedThrough > state.acknowledged {
                        try await resolveMismatch(
                            watermark: response.appliedThrough, digest: response.digest, state: state, refusals: response.refusals)
                    }
                    if try await restampFutureTransactions() > 0 {
                        scannedThrough = 0
                        continue
                    }
                }
                let refusal = await refused(response.refusal, response.reason, fallback: "push refused")
                // A push the server's rules cannot place: its transactions wait on the device. The
                // session shakes hands first if it has not (above), so that pulls go on meanwhile.
                if refusal.reason == .rulesMismatch, unplaced == nil, !handshaken {
                    unplaced = refusal
                    continue
                }
                throw refusal
            case .forbidden where response.refusal == .replicaTaken:
                partSent = nil
                largeAhead = nil
                // The id is bound to another secret (this file was restored from a backup made before it
                // had one): a new id, as after a mismatch, and the push again from the file's own base.
                try await resolveMismatch(watermark: 0, digest: nil, state: state)
                scannedThrough = 0
            case .forbidden:
                throw await refused(.forbidden, response.reason, fallback: "push forbidden")
            }
        }
    }

    /// The next part of a transaction too large for one request: netted first (once), then the rows
    /// after the position the server said it holds, a push's worth.
    private func nextPart(of transaction: LocalTransaction, stamp: SyncStamp, seen: Int64?) async throws -> (
        transaction: SyncTransaction, part: PushPart, rows: Int
    ) {
        let tables = self.tables
        let after = partSent.flatMap { $0.transaction == transaction.id ? $0.through : nil } ?? 0
        let rowLimit = max(options.pushRowLimit, 1)
        let byteLimit = pushBytes
        // The whole transaction's digest goes with every part: taken once per transaction and stamp.
        let known = nettedDigest.flatMap { $0.transaction == transaction.id && $0.stamp == stamp ? $0.digest : nil }
        // Netted at its first part in this session (the write lock is not taken again for each part).
        if known == nil {
            try await database.write { conn in try NettedTransactions.prepare(transaction, tables: tables, SQLRunner(conn)) }
        }
        let next: (transaction: SyncTransaction, part: PushPart, rows: Int) = try await database.read { conn in
            let sql = SQLRunner(conn)
            let slice = try NettedTransactions.slice(
                of: transaction.id, stamp: stamp, after: after, limit: rowLimit, byteLimit: byteLimit, tables: tables, sql)
            let digest = try known ?? NettedTransactions.digest(of: transaction.id, stamp: stamp, tables: tables, sql)
            let rows = slice.isLast ? try NettedTransactions.rowCount(of: transaction.id, sql) : 0
            // A part always moves the position on, even one whose rows all net to nothing.
            let through = slice.through > after ? slice.through : after + 1
            var changes = slice.changes
            if let seen {
                for index in changes.indices { changes[index].seen = seen }
            }
            return (
                SyncTransaction(id: transaction.id, stamp: stamp, changes: changes),
                PushPart(from: after, through: through, isLast: slice.isLast, transactionDigest: digest), rows
            )
        }
        nettedDigest = (transaction.id, stamp, next.part.transactionDigest)
        return next
    }

    /// The server's watermark is not this file's history. When the file holds the watermark's
    /// transaction with the same digest, an acknowledgement was lost (or this is a copy of the file
    /// restored from an older backup, whose original pushed on): take it, after undoing the
    /// `refusals` the server recorded in between (a mismatch answer's), which the file has not heard
    /// of. Otherwise the file was restored from a backup or copied to another device: take a new
    /// replica id, so that nothing written under the old one is skipped, and push again from the
    /// file's own acknowledged id.
    func resolveMismatch(watermark: Int64, digest: UInt64?, state: ServerState, refusals: [PushRefusal]? = nil) async throws {
        if let held = try await heldDigest(at: watermark), held == digest, watermark > state.acknowledged {
            var updated = state
            // Undone before the watermark is taken, as an accepted push's refusals are; those the file
            // marked refused already (a crash before the watermark was recorded) were reported then.
            let passed = (refusals ?? []).filter { $0.transactionID > state.acknowledged && $0.transactionID <= watermark }
            let pending = try await database.read { conn in
                try TransactionStamp.pendingAmong(passed.map(\.transactionID), SQLRunner(conn))
            }
            let unheard = passed.filter { pending.contains($0.transactionID) }
            try await undoRefused(unheard)
            // A refusal without its rows asked for a snapshot: the progress written next keeps asking.
            if unheard.contains(where: \.rowsLeftOut) { updated.bootstrapped = false }
            updated.acknowledged = watermark
            updated.digest = digest
            try await writeServerState(updated, clearRetired: false)
            return
        }
        let old = replica
        let fresh = options.makeIdentifier?() ?? SyncIdentity.newReplicaID()
        let server = serverID
        // A new id goes with a new secret: the old one stays with the copy that keeps the old id.
        let secret = try await database.write { conn in
            let sql = SQLRunner(conn)
            try ReplicaRecordRow.change(sql) {
                $0.replica = fresh
                $0.retired = old
            }
            let secret = try ReplicaSecrets.secret(for: fresh, sql)
            // The server leaves a replica's own changes out of its pulls; while this file shared its id
            // with another copy, the copy's changes were left out too. A bootstrap (a merge of the
            // server's state, which drops nothing local) brings them.
            try ServerState.requireBootstrap(server: server, sql)
            return secret
        }
        replica = fresh
        replicaSecret = secret
    }

    /// The digest of the file's own transaction `watermark` (one it pushed, refused ones included),
    /// `nil` when it holds none: what tells a watermark of this file's history from another copy's.
    func heldDigest(at watermark: Int64) async throws -> UInt64? {
        let tables = self.tables
        return try await database.write { conn -> UInt64? in
            guard watermark > 0 else { return nil }
            let sql = SQLRunner(conn)
            let read = try LocalLogReader.transactions(
                after: watermark - 1, rowLimit: 1, limits: .standard, tables: tables, on: conn.connection)
            guard let transaction = read.transactions.first, transaction.id == watermark, !transaction.isRemote || transaction.isRefused,
                let stamp = transaction.stamp
            else { return nil }
            guard transaction.isOversized else {
                var changes = transaction.syncChanges(stamp: stamp)
                _ = try CollaborativeTextCapture.read(after: transaction.id - 1, through: transaction.id, sql)
                    .substitute(into: &changes, transaction: transaction.id, tables: tables)
                return SyncTransaction(id: transaction.id, stamp: stamp, changes: changes).digest
            }
            try NettedTransactions.prepare(transaction, tables: tables, sql)
            return try NettedTransactions.digest(of: transaction.id, stamp: stamp, tables: tables, sql)
        }
    }

    /// Records what the server acknowledged, and (on a server with rules) the spaces it put the pushed
    /// rows in.
    func writeServerState(
        _ state: ServerState, clearRetired: Bool, spaces: [SnapshotPosition] = [], logged: [LoggedTransaction] = [],
        notLogged: [SyncStamp] = []
    ) async throws {
        let server = serverID
        let prunes = options.prunesAcknowledgedChanges
        try await database.write { conn in
            let sql = SQLRunner(conn)
            let positions = OwnLogPositions(server: server, sql: sql)
            try positions.record(logged)
            try positions.recordNotLogged(notLogged)
            let labels = SpaceLabels(sql: sql)
            for row in spaces { try labels.set(row.space, table: row.table.lowercased(), key: row.key) }
            var current = try ServerState.read(server: server, sql)
            // Writes acknowledged by an answer that did not say where they are (a lost answer taken
            // from a later one) are in the log or lost there: which, is not known.
            if state.acknowledged > current.acknowledged {
                try positions.recordUnplaced(after: current.acknowledged, through: state.acknowledged)
            }
            // Only forward: a late answer never moves the acknowledged id or the cursor back.
            if state.acknowledged >= current.acknowledged {
                current.acknowledged = state.acknowledged
                current.digest = state.digest
            }
            current.cursor = max(current.cursor, state.cursor)
            current.bootstrapped = current.bootstrapped || state.bootstrapped
            try current.write(server: server, sql)
            try NettedTransactions.removeHandled(
                acknowledged: current.acknowledged, foldedThrough: try ReplicaRecordRow.read(sql)?.foldedThrough ?? 0, sql)
            try SupersededCells.removeAcknowledged(through: current.acknowledged, sql: sql)
            // Kept while the change log keeps the transactions (a new server gets them all again).
            if prunes { try CollaborativeTextCapture.removeAcknowledged(through: current.acknowledged, sql) }
            if clearRetired { try ReplicaRecordRow.change(sql) { $0.retired = nil } }
        }
    }

    /// Stamps every local transaction after the acknowledged one that BoutiqueDB did not stamp at its
    /// commit (written before the file was set up for sync), so that it is counted as pending.
    func stampUnstampedTransactions() async throws {
        let tables = self.tables
        var after = try await serverState().acknowledged
        while true {
            let from = after
            let read = try await database.read { conn in
                try LocalLogReader.transactions(after: from, rowLimit: 4_096, limits: .standard, tables: tables, on: conn.connection)
            }
            let unstamped = read.transactions.filter { !$0.isRemote && !$0.isRefused && $0.hasChanges && $0.stamp == nil }
            if !unstamped.isEmpty { try await stampUnstamped(unstamped) }
            guard read.readThrough > after else { return }
            after = read.readThrough
        }
    }

    /// Gives stamps to local transactions that BoutiqueDB did not stamp at their commit (see
    /// ``LocalFolder/assignStamp(to:replica:_:)``).
    private func stampUnstamped(_ transactions: [LocalTransaction]) async throws {
        let replica = self.replica
        try await database.write { conn in
            let sql = SQLRunner(conn)
            for transaction in transactions
            where try !TransactionStamp.exists(transaction.id, sql) {
                _ = try LocalFolder.assignStamp(to: transaction, replica: replica, sql)
            }
        }
        // Older transactions became pending, behind the newest one the tally counted.
        await pendingTally.invalidate()
    }

    /// Prunes the change log of transactions the server acknowledged and the states include.
    func pruneAcknowledged() async throws {
        guard options.prunesAcknowledgedChanges else { return }
        let server = serverID
        let skip = prunedFor
        let found = try await database.read { conn -> (Int64, Int64?) in
            let sql = SQLRunner(conn)
            let state = try ServerState.read(server: server, sql)
            guard state.acknowledged > 0, state.acknowledged != skip else { return (state.acknowledged, nil) }
            let folded = try ReplicaRecordRow.read(sql)?.foldedThrough ?? 0
            guard let commit = try sql.value(
                "SELECT max(change_id) FROM turso_cdc WHERE change_txn_id = ?", [.integer(state.acknowledged)])?.integerValue
            else { return (state.acknowledged, nil) }
            return (state.acknowledged, min(commit, folded))
        }
        prunedFor = found.0
        guard let through = found.1, through > 0 else { return }
        try await database.pruneChanges(upTo: ChangeToken(changeID: through))
    }
}
