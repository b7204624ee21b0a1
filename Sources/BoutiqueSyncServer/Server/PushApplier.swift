/// Applies one validated push inside a store transaction: checks the replica's watermark and digest,
/// merges each new transaction's changes into the rows, logs them, runs the resolver, and moves the
/// watermark, all in the caller's transaction.
struct PushApplier {
    let store: any SyncStoreTransaction
    let wall: UInt64
    let resolver: SyncResolver?

    /// Why a pushed transaction is refused: the first change the user may not make.
    struct Denial: Sendable {
        let change: SyncChange
        let reason: String
    }

    /// Applies `request`, except the transactions `refusing` names: those are recorded as handled
    /// (the watermark moves past them) and answered with the server's version of their rows. A
    /// transaction pushed again after a lost answer is refused again, so the device still hears of it.
    func apply(_ request: PushRequest, refusing denials: [Int64: Denial] = [:]) throws -> PushResponse {
        var clock = HybridLogicalClock(last: try store.clock())
        let serverTime = clock.tick(now: wall)
        let known = try store.replica(request.replica)
        var record = known
            ?? ReplicaRecord(
                replica: request.replica, appliedThrough: request.baseTransactionID, digest: request.baseDigest, cursor: 0,
                lastSeen: wall, isRetired: false)
        if known != nil, request.baseTransactionID != record.appliedThrough || request.baseDigest != record.digest {
            // The device's base is not the server's watermark. A lost acknowledgement makes the device
            // push the watermark's transaction again: then its digest shows it is the same history.
            let resent = request.transactions.first { $0.id == record.appliedThrough }
            guard let resent, resent.digest == record.digest else {
                try store.setClock(serverTime)
                return PushResponse(outcome: .mismatch, appliedThrough: record.appliedThrough, digest: record.digest, serverTime: serverTime)
            }
        }
        for transaction in request.transactions where transaction.id > record.appliedThrough {
            guard denials[transaction.id] == nil else {
                record.appliedThrough = transaction.id
                record.digest = transaction.digest
                continue
            }
            var batch: Int64?
            for change in transaction.changes {
                var state = try store.rowState(table: change.table, key: change.key) ?? RowRegister()
                let previous = state
                MergeRule.apply(change, to: &state)
                // A change the row already holds (the same write pushed again by a file that took a new
                // replica id) or that loses everywhere changes nothing, and is not logged: devices would
                // apply it to no effect.
                guard state != previous else {
                    clock.observe(change.stamp.time)
                    continue
                }
                let logged = try store.appendChange(change, origin: request.replica, batch: batch)
                batch = logged.batch
                var sequence = logged.sequence
                if let resolver, change.kind != .delete,
                    let columns = resolver(SyncConflict(table: change.table, key: change.key, change: change, previous: previous, merged: state)),
                    !columns.isEmpty
                {
                    let resolution = SyncChange(
                        table: change.table, key: change.key, kind: .update, columns: columns,
                        stamp: SyncStamp(time: clock.tick(now: wall), replica: SyncServer.serverReplica))
                    MergeRule.apply(resolution, to: &state)
                    sequence = try store.appendChange(resolution, origin: SyncServer.serverReplica, batch: batch).sequence
                }
                try store.setRowState(state, table: change.table, key: change.key, sequence: sequence)
                clock.observe(change.stamp.time)
            }
            record.appliedThrough = transaction.id
            record.digest = transaction.digest
        }
        record.lastSeen = wall
        try store.setReplica(record)
        if let retired = request.retiredReplica, retired != request.replica, var old = try store.replica(retired) {
            old.isRetired = true
            try store.setReplica(old)
        }
        try store.setClock(clock.last)
        return PushResponse(
            outcome: .accepted, appliedThrough: record.appliedThrough, digest: record.digest, serverTime: clock.last,
            refusals: try refusals(of: request, denials))
    }

    /// The refusals of the push's denied transactions, each with the server's state of its rows.
    private func refusals(of request: PushRequest, _ denials: [Int64: Denial]) throws -> [PushRefusal]? {
        guard !denials.isEmpty else { return nil }
        return try request.transactions.compactMap { transaction in
            guard let denial = denials[transaction.id] else { return nil }
            var rows: [SnapshotRow] = []
            var absent: [SnapshotPosition] = []
            for change in transaction.changes {
                if let state = try store.rowState(table: change.table, key: change.key) {
                    rows.append(SnapshotRow(table: change.table, key: change.key, state: state))
                } else {
                    absent.append(SnapshotPosition(table: change.table, key: change.key))
                }
            }
            return PushRefusal(
                transactionID: transaction.id, table: denial.change.table, key: denial.change.key, reason: .forbidden,
                message: denial.reason, rows: rows, absentRows: absent)
        }
    }
}
