/// What sync asks of its rows in `boutique_sync_replica` and `boutique_sync_txn` (the `@Table` types
/// BoutiqueDB defines, since it stamps through them): each question in one place, with the SQL the
/// query builder renders for it.
extension ReplicaRecordRow {
    /// The file's replica row; `nil` before sync's migrations created it.
    static func read(_ sql: SQLRunner) throws -> ReplicaRecordRow? {
        try find(only).fetchOne(sql.connection)
    }

    /// Changes the replica row: `change` assigns its columns.
    static func change(_ sql: SQLRunner, _ change: (inout Updates<ReplicaRecordRow>) -> Void) throws {
        try update(change).where { $0.singleton == only }.execute(sql.connection)
    }

    /// Moves the file's clock past `stamp` (a hybrid timestamp's raw value), never back.
    static func advanceClock(past stamp: Int64, _ sql: SQLRunner) throws {
        try FileClock.advance(past: HybridTimestamp(rawValue: UInt64(bitPattern: stamp)), sql.connection)
    }
}

extension TransactionStamp {
    /// Whether the transaction `id` has a stamp or a mark.
    static func exists(_ id: Int64, _ sql: SQLRunner) throws -> Bool {
        try find(id).select(\.transactionID).fetchOne(sql.connection) != nil
    }

    /// How many local transactions after `acknowledged` wait to be pushed.
    static func pendingCount(after acknowledged: Int64, _ sql: SQLRunner) throws -> Int {
        try TransactionStamp.where { $0.mark == Mark.local && $0.transactionID > acknowledged }.fetchCount(sql.connection)
    }

    /// The newest transaction with a stamp or a mark, 0 when there is none: one step down the key's index.
    static func newestID(_ sql: SQLRunner) throws -> Int64 {
        try TransactionStamp.order { $0.transactionID.desc() }.limit(1).select(\.transactionID).fetchOne(sql.connection) ?? 0
    }

    /// Whether `writer` stamped a transaction this file made (one the server refused included).
    static func isLocalWriter(_ writer: String, _ sql: SQLRunner) throws -> Bool {
        try TransactionStamp.where { $0.mark != Mark.remote && $0.writer == writer }.limit(1).select(\.transactionID)
            .fetchOne(sql.connection) != nil
    }

    /// The stamp the transaction's changes carry.
    var syncStamp: SyncStamp { SyncStamp(time: HybridTimestamp(rawValue: UInt64(bitPattern: stamp)), replica: writer) }

    /// The stamps of the transactions `ids` (those that have one).
    static func syncStamps(of ids: [Int64], _ sql: SQLRunner) throws -> Set<SyncStamp> {
        var stamps: Set<SyncStamp> = []
        for id in ids {
            let stamped = try `where` { $0.transactionID == id }.fetchAll(sql.connection)
            stamps.formUnion(stamped.map(\.syncStamp))
        }
        return stamps
    }

    /// Which of the transactions `ids` still wait to be pushed (neither refused nor remote).
    static func pendingAmong(_ ids: [Int64], _ sql: SQLRunner) throws -> Set<Int64> {
        var pending: Set<Int64> = []
        for id in ids where try TransactionStamp.where({ $0.transactionID == id && $0.mark == Mark.local }).fetchCount(sql.connection) > 0 {
            pending.insert(id)
        }
        return pending
    }

    /// Marks the local transaction `id` refused by the server.
    static func markRefused(_ id: Int64, _ sql: SQLRunner) throws {
        try update { $0.mark = Mark.refused }.where { $0.transactionID == id && $0.mark == Mark.local }.execute(sql.connection)
    }
}
