/// The tables of a file set up for sync that ``CommitStamper`` reads and writes, and its statements.
///
/// Sync creates them (its own migrations, in the file); BoutiqueDB only stamps through them, so that a
/// process without sync code stamps its commits the same way:
///
/// - `boutique_sync_table(tbl)`: the synced tables, lowercased. Its presence is what "set up for
///   sync" means.
/// - `boutique_sync_replica`: one row; `clock` is the latest stamp the file has handed out or seen,
///   `clock_offset` the server's clock minus the device's, in milliseconds, as sync last measured it.
/// - `boutique_sync_txn(change_txn_id, stamp, writer, remote)`: each local transaction's stamp and
///   writer, or `remote = 1` for a transaction a sync engine applied.
///
/// Names that start with `boutique_sync_` are bookkeeping: the change log does not record them.
enum CommitStampTables {
    static let isSetUp = "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'boutique_sync_table'"
    static let readTables = "SELECT tbl FROM boutique_sync_table"
    static let readClock = "SELECT clock, clock_offset FROM boutique_sync_replica WHERE singleton = 1"
    static let advanceClock = "UPDATE boutique_sync_replica SET clock = max(clock, ?) WHERE singleton = 1"
    static let insertLocal = "INSERT OR REPLACE INTO boutique_sync_txn(change_txn_id, stamp, writer, remote) VALUES (?, ?, ?, 0)"
    static let insertRemote = "INSERT OR REPLACE INTO boutique_sync_txn(change_txn_id, stamp, writer, remote) VALUES (?, 0, '', 1)"
}
