/// A pushed transaction the server refused, as a store keeps it: the newest of each replica stay after
/// its device acknowledged past them, since a copy of the device's file restored from an older backup
/// has not heard of them, and hears of them when it pushes from its older base.
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
/// moves past it), so when the answer is lost and the device pushes it again, or a restored copy of its
/// file pushes from an older base, this is what tells the server it refused it, rather than a check run
/// again on rows and members that changed since.
public protocol SyncRefusalStoreTransaction {
    /// Keeps `refusal` for `replica`.
    func recordRefusal(_ refusal: RefusedTransaction, replica: String) throws
    /// The refusals kept for `replica` with transaction ids in `from...through`, by id.
    func refusedTransactions(replica: String, from: Int64, through: Int64) throws -> [RefusedTransaction]
    /// Forgets `replica`'s refusals with ids up to `through` (`Int64.max`: all of them, for a replica
    /// retired or collected).
    func forgetRefusals(replica: String, through: Int64) throws
    /// Forgets `replica`'s refusals but the newest `count`: what bounds the refusals kept for copies of
    /// the device's file.
    func forgetRefusals(replica: String, keepingNewest count: Int) throws
}
