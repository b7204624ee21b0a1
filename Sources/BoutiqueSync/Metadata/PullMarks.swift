/// How far this file had pulled from a server when each of its local writes was made: the pull
/// cursor every time it moved, with the file's clock at that moment (`boutique_sync_pull_mark`).
///
/// BoutiqueDB stamps a local write at its commit with the file's clock, which every later stamp
/// passes, so a write stamped after a mark's clock was made after that pull: its ``SyncChange/seen``
/// is the cursor of the latest such mark. The pushed change carries it, and a device whose edit it
/// overwrites learns whether the writer had that edit (``OwnLogPositions``).
///
/// Marks older than the latest one before the oldest write still to be pushed answer nothing any
/// more, and are dropped as the cursor moves.
enum PullMarks {
    /// Notes that the cursor for `server` is `cursor`, in the transaction that writes it.
    static func note(server: String, cursor: Int64, acknowledged: Int64, _ sql: SQLRunner) throws {
        let latest = try sql.value("SELECT max(cursor) FROM boutique_sync_pull_mark WHERE server = ?", [.text(server)])?.integerValue
        if let latest, latest >= cursor { return }
        // A file that has pulled nothing yet had seen nothing whenever it wrote: its first mark is at
        // the clock's start. One that pulled before marks were kept starts them now (its earlier
        // writes carry no `seen`).
        var clock: Int64 = 0
        if latest != nil || cursor > 0, let reading = try FileClock.read(sql.connection) {
            clock = Int64(bitPattern: reading.last.rawValue)
        }
        try sql.run(
            "INSERT OR REPLACE INTO boutique_sync_pull_mark(server, clock, cursor) VALUES (?, ?, ?)",
            [.text(server), .integer(clock), .integer(cursor)])
        let oldestUnpushed = try sql.value(
            "SELECT min(stamp) FROM boutique_sync_txn WHERE remote = 0 AND change_txn_id > ?", [.integer(acknowledged)])?.integerValue
        try sql.run(
            """
            DELETE FROM boutique_sync_pull_mark WHERE server = ?1 AND clock <
                (SELECT max(clock) FROM boutique_sync_pull_mark WHERE server = ?1 AND clock < ?2)
            """,
            [.text(server), .integer(oldestUnpushed ?? Int64.max)])
    }

    /// The cursor `server`'s pull had reached when the local write stamped `stamp` was made (the file's
    /// cursor is `cursor` now); `nil` when the file does not know (it wrote before it kept marks).
    static func seen(server: String, stamp: SyncStamp, cursor: Int64, _ sql: SQLRunner) throws -> Int64? {
        if let seen = try sql.value(
            "SELECT max(cursor) FROM boutique_sync_pull_mark WHERE server = ? AND clock < ?",
            [.text(server), .integer(Int64(bitPattern: stamp.time.rawValue))])?.integerValue
        {
            return seen
        }
        // A file that has pulled nothing from the server had seen nothing of it.
        guard cursor == 0 else { return nil }
        return 0
    }
}
