import BoutiqueSQLite

/// Code outside BoutiqueDB that writes rows of its own into every write transaction, just before it
/// commits: an audit trail, a denormalised counter, bookkeeping of another engine.
///
/// ```swift
/// final class AuditTrail: TransactionParticipant {
///     func willCommit(_ transaction: CommittingTransaction) throws {
///         guard let id = transaction.transactionID, transaction.tables.contains("note") else { return }
///         try transaction.connection.execute("INSERT INTO audit(txn) VALUES (?)", [.integer(id)])
///     }
///     func didEnd(committed: Bool) {}
/// }
/// await database.addTransactionParticipant(AuditTrail())
/// ```
///
/// A participant runs on the writer's thread, after the change log has recorded the transaction's rows
/// and inside the transaction: what it writes commits or rolls back with the user's changes. Keep it
/// fast; the write lock is held. Tables whose names start with `boutique_sync_` are bookkeeping and are
/// not recorded in the change log, so a participant writing them adds no change of its own.
public protocol TransactionParticipant: AnyObject, Sendable {
    /// The transaction is about to commit; statements run on `transaction.connection` are part of it.
    /// Throwing rolls the whole transaction back and fails the write with the error.
    func willCommit(_ transaction: CommittingTransaction) throws

    /// The transaction ended: committed, or rolled back (the closure threw, a participant refused, the
    /// commit failed).
    func didEnd(committed: Bool)
}

/// A write transaction about to commit, as a ``TransactionParticipant`` sees it.
///
/// ```swift
/// if let id = transaction.transactionID { print("turso_cdc change_txn_id", id, transaction.tables) }
/// ```
public struct CommittingTransaction {
    /// The writer connection, inside the transaction.
    public let connection: DatabaseConnection
    /// The transaction's `change_txn_id` in `turso_cdc`; `nil` when it logged no row (it changed
    /// nothing logged, or the log is off).
    public let transactionID: Int64?
    /// The change token its COMMIT row will be, when it logged rows.
    public let token: ChangeToken?
    /// The tables it changed, lowercased (`sqlite_schema` for a schema change).
    public let tables: Set<String>
}
