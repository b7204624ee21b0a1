import BoutiqueSQLite

/// A row of `boutique_sync_txn`: the stamp of one local write transaction, by its `change_txn_id`, or
/// the mark of one applied from another replica (or refused by the server).
///
/// ```swift
/// try TransactionStamp.insert { TransactionStamp(transactionID: id, stamp: raw, writer: writer, mark: .local) }.execute(conn)
/// ```
///
/// One definition of the table's rows for BoutiqueDB, which stamps, and for the sync engine, which reads
/// the stamps back and marks what it applies: their statements are rendered from here. The table's SQL
/// is also spelled out in places that must change with it: sync's migration that creates it
/// (`SyncMetadataSchema`), the outbox reader, which joins it to `turso_cdc` (`LocalLogReader`), and the
/// statements run at every commit (``record(_:on:)``, ``FileClock``), kept prepared.
@Table("boutique_sync_txn")
package struct TransactionStamp: Sendable, Equatable {
    /// What a transaction is to sync.
    package enum Mark: Int, QueryBindable, Sendable {
        /// A local write: pushed.
        case local = 0
        /// Applied from another replica: never pushed back.
        case remote = 1
        /// Refused by the server and undone locally: neither pushed nor folded again.
        case refused = 2
    }

    @Column("change_txn_id", primaryKey: true) package let transactionID: Int64
    /// The hybrid timestamp's raw value (0 for a remote transaction).
    package var stamp: Int64
    /// The writer id of the open database that committed it ("" for a remote transaction).
    package var writer: String
    @Column("remote") package var mark: Mark

    package init(transactionID: Int64, stamp: Int64, writer: String, mark: Mark) {
        self.transactionID = transactionID
        self.stamp = stamp
        self.writer = writer
        self.mark = mark
    }

    /// Writes `stamp`, replacing what the transaction had.
    ///
    /// This runs at every commit to a synced table, so it is one statement kept prepared on the
    /// connection: building the same upsert with the query builder at each commit cost more than
    /// SQLite's work for it.
    package static func record(_ stamp: TransactionStamp, on connection: Connection) throws {
        try connection.execute(
            recordSQL, [.integer(stamp.transactionID), .integer(stamp.stamp), .text(stamp.writer), .integer(Int64(stamp.mark.rawValue))])
    }

    /// The upsert ``record(_:on:)`` runs, with the transaction id, stamp, writer and mark bound in order.
    static let recordSQL = """
        INSERT INTO boutique_sync_txn(change_txn_id, stamp, writer, remote) VALUES (?, ?, ?, ?)
        ON CONFLICT(change_txn_id) DO UPDATE SET stamp = excluded.stamp, writer = excluded.writer, remote = excluded.remote
        """
}

/// The one row of `boutique_sync_replica`: the file's replica id, the id it gave up, its clock, the
/// offset to the server's clock, and how far local transactions were folded into row states.
@Table("boutique_sync_replica")
package struct ReplicaRecordRow: Sendable, Equatable {
    @Column(primaryKey: true) package let singleton: Int
    package var replica: String
    package var retired: String?
    /// The latest stamp the file handed out or saw (a hybrid timestamp's raw value).
    package var clock: Int64
    @Column("folded_through") package var foldedThrough: Int64
    /// The server's clock minus this device's, in milliseconds.
    @Column("clock_offset") package var clockOffset: Int64

    /// The key of the table's only row.
    package static let only = 1

    package init(replica: String, retired: String? = nil, clock: Int64 = 0, foldedThrough: Int64 = 0, clockOffset: Int64 = 0) {
        self.singleton = Self.only
        self.replica = replica
        self.retired = retired
        self.clock = clock
        self.foldedThrough = foldedThrough
        self.clockOffset = clockOffset
    }
}

/// A row of `boutique_sync_table`: one synced table, lowercased. The table's presence is what makes a
/// file "set up for sync".
@Table("boutique_sync_table")
package struct SyncedTableName: Sendable, Equatable {
    @Column("tbl", primaryKey: true) package let name: String

    package init(name: String) { self.name = name }
}
