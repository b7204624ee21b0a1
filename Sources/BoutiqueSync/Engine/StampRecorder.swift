import BoutiqueSQLite

/// Stamps each local write transaction that touches a synced table with the hybrid logical clock, in
/// that transaction, and marks the transactions sync itself applies as remote.
///
/// ```swift
/// await database.addTransactionParticipant(recorder)
/// try await database.write { conn in
///     recorder.markNextCommitRemote()   // inside a pull: this transaction is never pushed back
///     …
/// }
/// ```
///
/// One `INSERT` per stamped transaction is all a local write pays for sync; the per-column winners are
/// folded in from the change log later (``LocalFolder``), which holds everything needed to do so.
final class StampRecorder: TransactionParticipant {
    private struct State {
        var clock: HybridLogicalClock
        var nextCommitIsRemote = false
    }

    /// The lowercased names of the synced tables.
    let syncedTables: Set<String>
    /// This session's writer id: the replica part of every stamp it hands out (see ``SyncSession``).
    let writer: String
    private let now: @Sendable () -> UInt64
    private let state: Lock<State>

    init(syncedTables: Set<String>, writer: String, clock: HybridLogicalClock, now: @escaping @Sendable () -> UInt64) {
        self.syncedTables = syncedTables
        self.writer = writer
        self.now = now
        self.state = Lock(State(clock: clock))
    }

    /// The next transaction to commit is one sync applies from the server.
    func markNextCommitRemote() { state.withLock { $0.nextCommitIsRemote = true } }

    /// Moves the clock past a stamp seen from the server.
    func observe(_ time: HybridTimestamp) { state.withLock { $0.clock.observe(time) } }

    /// A new stamp, for a local transaction written without the recorder (before sync was set up).
    func tick() -> HybridTimestamp {
        let wall = now()
        return state.withLock { $0.clock.tick(now: wall) }
    }

    /// The clock's latest reading.
    var lastReading: HybridTimestamp { state.withLock { $0.clock.last } }

    func willCommit(_ transaction: CommittingTransaction) throws {
        let wall = now()
        let (remote, stamp): (Bool, HybridTimestamp?) = state.withLock { state in
            if state.nextCommitIsRemote { return (true, nil) }
            guard transaction.transactionID != nil, !transaction.tables.isDisjoint(with: syncedTables) else { return (false, nil) }
            return (false, state.clock.tick(now: wall))
        }
        guard let id = transaction.transactionID else { return }
        let sql = SQLRunner(transaction.connection)
        if remote {
            try sql.run(
                "INSERT OR REPLACE INTO boutique_sync_txn(change_txn_id, stamp, writer, remote) VALUES (?, 0, '', 1)", [.integer(id)])
        } else if let stamp {
            try sql.run(
                "INSERT OR REPLACE INTO boutique_sync_txn(change_txn_id, stamp, writer, remote) VALUES (?, ?, ?, 0)",
                [.integer(id), .integer(Int64(bitPattern: stamp.rawValue)), .text(writer)])
        }
    }

    func didEnd(committed: Bool) {
        state.withLock { $0.nextCommitIsRemote = false }
    }
}
