/// A pushed transaction the server refused, as a store keeps it until the device that pushed it has
/// heard so.
public struct RefusedTransaction: Hashable, Sendable {
    /// The device's id of the transaction.
    public var transactionID: Int64
    /// The table of the change that was refused.
    public var table: String
    /// The key of the row whose change was refused.
    public var key: DatabaseValue
    /// Why.
    public var reason: String

    /// A refused transaction.
    public init(transactionID: Int64, table: String, key: DatabaseValue, reason: String) {
        self.transactionID = transactionID
        self.table = table
        self.key = key
        self.reason = reason
    }
}

/// The refusals a store keeps per replica: a transaction refused is handled (the replica's watermark
/// moves past it), so when the answer is lost and the device pushes it again, this is what tells the
/// server it refused it, rather than a check run again on rows and members that changed since.
public protocol SyncRefusalStoreTransaction {
    /// Keeps `refusal` for `replica`.
    func recordRefusal(_ refusal: RefusedTransaction, replica: String) throws
    /// The refusals kept for `replica` with transaction ids in `from...through`, by id.
    func refusedTransactions(replica: String, from: Int64, through: Int64) throws -> [RefusedTransaction]
    /// Forgets `replica`'s refusals with ids up to `through`: the device acknowledged past them, so it
    /// heard of them.
    func forgetRefusals(replica: String, through: Int64) throws
}
