/// A committed transaction of the change log: its token and its row changes, in the order they were
/// made.
///
/// ```swift
/// for try await transaction in db.changes(since: saved) {
///     try apply(transaction.changes)
///     saved = transaction.token
/// }
/// ```
public struct ChangeTransaction: Sendable, Hashable {
    /// The token of the transaction's COMMIT row: resume after it with `changes(since: token)`.
    public let token: ChangeToken
    /// The log's `change_txn_id`: the `change_id` of the transaction's first row.
    public let transactionID: Int64
    /// When it committed, in whole seconds since 1970 (the COMMIT row's `change_time`).
    public let time: Int64
    /// The row changes, in order.
    public let changes: [RowChange]

    /// A transaction as the change log holds it.
    public init(token: ChangeToken, transactionID: Int64, time: Int64, changes: [RowChange]) {
        self.token = token
        self.transactionID = transactionID
        self.time = time
        self.changes = changes
    }

    /// The tables the transaction changed.
    public var tables: Set<String> { Set(changes.map(\.table)) }
}
