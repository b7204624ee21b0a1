import BoutiqueSQLite

/// The hybrid logical clock a file set up for sync stamps with, shared by every process that opens it:
/// the latest stamp the file handed out or saw, read inside a write transaction.
///
/// ```swift
/// // inside a write transaction on a file set up for sync
/// if let reading = try FileClock.read(connection) {
///     var clock = HybridLogicalClock(last: reading.last)
///     let stamp = clock.tick(now: HybridLogicalClock.corrected(now, by: reading.offset))
/// }
/// ```
///
/// The clock is kept in two places, and its reading is the later of them: the replica row's `clock`
/// (``ReplicaRecordRow``), which sync moves past the stamps it pulls, and the stamp of the newest row
/// of `boutique_sync_txn` (``TransactionStamp``). A local commit's stamp is ticked from the reading and
/// written only in its own transaction's row, which is then the newest: the replica row is not
/// written at every commit, a write and a WAL page fewer per commit, and the clock still never goes
/// back, across processes (the reading is taken under the write lock, from the file) and crashes (the
/// stamp commits or rolls back with its transaction).
///
/// That holds while the newest row's stamp is the clock's latest local reading, so anything that adds
/// a row with a smaller stamp (a remote transaction's mark, a stamp given late) first ``settle(_:)``s
/// the reading into the replica row. Rows of `boutique_sync_txn` are never deleted.
package enum FileClock {
    /// A reading of the file's clock.
    package struct Reading: Sendable, Equatable {
        /// The latest stamp the file handed out or saw.
        package var last: HybridTimestamp
        /// The server's clock minus this device's, in milliseconds (the replica row's `clock_offset`).
        package var offset: Int64
        /// What the replica row's `clock` holds, which may be behind ``last``.
        package var recorded: HybridTimestamp
    }

    /// The replica row's clock and offset, and the newest transaction's stamp, in one step.
    static let readingSQL = """
        SELECT clock, clock_offset, (SELECT stamp FROM boutique_sync_txn ORDER BY change_txn_id DESC LIMIT 1)
        FROM boutique_sync_replica WHERE singleton = 1
        """

    /// The clock's reading; `nil` when the file has no replica row (it is not set up for sync).
    package static func read(_ connection: Connection) throws -> Reading? {
        let statement = try connection.cachedStatement(readingSQL)
        defer { try? statement.reset() }
        guard try statement.step() else { return nil }
        let recorded = HybridTimestamp(rawValue: UInt64(bitPattern: statement.int64(at: 0)))
        let newest = HybridTimestamp(rawValue: UInt64(bitPattern: statement.int64(at: 2)))
        return Reading(last: max(recorded, newest), offset: statement.int64(at: 1), recorded: recorded)
    }

    /// Writes the clock's reading into the replica row, so that it no longer rests on the newest
    /// transaction's stamp: before a row with a smaller stamp becomes the newest.
    package static func settle(_ connection: Connection) throws {
        try advance(past: .zero, connection)
    }

    /// Moves the clock past `stamp` (one seen in a pulled change), never back; the reading is settled
    /// into the replica row as well.
    package static func advance(past stamp: HybridTimestamp, _ connection: Connection) throws {
        guard let reading = try read(connection) else { return }
        let target = max(reading.last, stamp)
        guard target > reading.recorded else { return }
        let raw = Int64(bitPattern: target.rawValue)
        try ReplicaRecordRow.update { $0.clock = raw }.where { $0.singleton == ReplicaRecordRow.only }.execute(connection)
    }
}
