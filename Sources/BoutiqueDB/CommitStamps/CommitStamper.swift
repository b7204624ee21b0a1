import BoutiqueSQLite
import Foundation

/// Stamps every local write transaction that changes a synced table with the file's hybrid logical
/// clock, inside that transaction: the stamp is the time the write was made, whoever makes it.
///
/// ```swift
/// // A widget's process opens the app's file, without any sync code, and writes:
/// try await database.write { conn in try conn.execute("UPDATE note SET title = 'Milk' WHERE id = ?", [id]) }
/// // boutique_sync_txn now holds that transaction's stamp, taken at its commit
/// ```
///
/// Sync merges by (stamp, writer), so a stamp taken later than its write (when sync next reads the
/// log, minutes after a widget wrote) would beat another device's genuinely later edit. So BoutiqueDB
/// stamps, not sync: once a file is set up for sync (``SyncedTableName``'s table exists), every process that
/// opens it with BoutiqueDB stamps its commits, no server or token needed. The clock lives in the file
/// (``FileClock``: the replica row's clock and the newest stamp), read and advanced under the write
/// lock, so processes sharing the file share one clock that never goes back; its wall time is corrected by the offset to the server's
/// clock that sync last measured (`clock_offset`), so a device whose clock runs fast stops winning
/// conflicts once it has talked to the server.
///
/// A `.remote` transaction (changes a sync engine pulled) is marked remote instead, so that it is never
/// pushed back. Runs on the writer's thread after ``ChangeCapture``, whose notice says which tables the
/// transaction changed and its `change_txn_id`.
final class CommitStamper: WriteTransactionObserver {
    /// The change capture that ran before this observer in the same transaction.
    private weak var capture: ChangeCapture?
    /// Milliseconds since 1970; simulations set a virtual clock.
    var wallClock: @Sendable () -> UInt64
    /// The writer id of the stamps this process hands out: unique per open database, so that two
    /// copies of one file never hand out the same stamp.
    var writer: String
    /// The synced tables (lowercased) when the file is set up for sync, empty when it is not, `nil`
    /// when not read yet or stale (another process may have changed them).
    private var syncedTables: Set<String>?
    private var origin: TransactionOrigin = .local
    /// Whether the committing transaction changed the schema, seen in `willCommit`.
    private var changedSchema = false

    init(capture: ChangeCapture?, wallClock: @escaping @Sendable () -> UInt64 = CommitStamper.systemClock, writer: String) {
        self.capture = capture
        self.wallClock = wallClock
        self.writer = writer
    }

    /// The system's wall clock in milliseconds since 1970.
    static let systemClock: @Sendable () -> UInt64 = { UInt64(max(0, Date().timeIntervalSince1970 * 1000)) }

    /// Reads the synced tables again at the next commit.
    func reload() { syncedTables = nil }

    func willBegin(origin: TransactionOrigin) { self.origin = origin }

    func didDetectExternalChanges(_ connection: Connection) { syncedTables = nil }

    func willCommit(_ connection: Connection) throws {
        changedSchema = capture?.notice?.changesSchema ?? false
        guard let notice = capture?.notice, notice.token != nil, let id = capture?.transactionID else { return }
        let synced = try loadSyncedTables(connection)
        guard !synced.isEmpty else { return }
        if origin == .remote {
            // The mark's stamp (0) is about to be the newest: the clock's reading moves to the replica row.
            try FileClock.settle(connection)
            try TransactionStamp.record(TransactionStamp(transactionID: id, stamp: 0, writer: "", mark: .remote), on: connection)
            return
        }
        guard let tables = notice.tables, !tables.isDisjoint(with: synced) else { return }
        guard let reading = try FileClock.read(connection) else { return }
        var clock = HybridLogicalClock(last: reading.last)
        let stamp = Int64(bitPattern: clock.tick(now: HybridLogicalClock.corrected(wallClock(), by: reading.offset)).rawValue)
        // The tick is past the clock it read, and its row is the newest: the new stamp is the clock's
        // reading without a write to the replica row (see FileClock).
        try TransactionStamp.record(TransactionStamp(transactionID: id, stamp: stamp, writer: writer, mark: .local), on: connection)
    }

    func didCommit(_ connection: Connection) {
        // A schema change may have been sync's own set-up (or its removal): read the tables again.
        if changedSchema { syncedTables = nil }
        changedSchema = false
        origin = .local
    }

    func didRollback(_ connection: Connection) {
        changedSchema = false
        origin = .local
    }

    private func loadSyncedTables(_ connection: Connection) throws -> Set<String> {
        if let syncedTables { return syncedTables }
        var tables: Set<String> = []
        let isSetUp = try connection.fetchValue(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", [.text(SyncedTableName.tableName)])
        if isSetUp != nil {
            for name in try SyncedTableName.all.select(\.name).fetchAll(connection) { tables.insert(name.lowercased()) }
        }
        syncedTables = tables
        return tables
    }
}
