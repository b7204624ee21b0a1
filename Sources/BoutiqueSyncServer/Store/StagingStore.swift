/// A transaction a device is sending in parts (``/BoutiqueSync/PushPart``), as a store keeps it until the last part
/// comes: its id and stamp, how far its parts reached, and the digest of the changes kept so far.
public struct StagedTransaction: Hashable, Sendable {
    /// The device's id of the transaction.
    public var transactionID: Int64
    /// Its stamp, which every change carries.
    public var stamp: SyncStamp
    /// The device's position of the last change kept (``/BoutiqueSync/PushPart/through`` of the last part kept).
    public var receivedThrough: Int64
    /// How many changes are kept.
    public var changeCount: Int
    /// ``/BoutiqueSync/SyncDigest/Running/state`` over the changes kept.
    public var digestState: UInt64
    /// When a part was last kept, in server milliseconds: parts a device stopped sending are removed
    /// after the server's retention period.
    public var updated: UInt64

    /// A staged transaction.
    public init(transactionID: Int64, stamp: SyncStamp, receivedThrough: Int64, changeCount: Int, digestState: UInt64, updated: UInt64) {
        self.transactionID = transactionID
        self.stamp = stamp
        self.receivedThrough = receivedThrough
        self.changeCount = changeCount
        self.digestState = digestState
        self.updated = updated
    }
}

/// The parts of transactions devices send in parts, as a store keeps them: at most one transaction
/// per replica, its changes in order, at most one change per row.
public protocol SyncStagingStoreTransaction {
    /// The transaction `replica` is sending in parts, `nil` when none.
    func stagedTransaction(replica: String) throws -> StagedTransaction?
    /// Creates or replaces what is known of `replica`'s staged transaction.
    func setStagedTransaction(_ staged: StagedTransaction, replica: String) throws
    /// Keeps `changes` after the `startingAt` changes kept before; `false` (and nothing kept) when one
    /// of them changes a row that a kept change of the transaction already changes.
    func stageChanges(_ changes: [SyncChange], replica: String, startingAt index: Int) throws -> Bool
    /// Up to `limit` kept changes of `replica`'s staged transaction, from the `index`th on.
    func stagedChanges(replica: String, from index: Int, limit: Int) throws -> [SyncChange]
    /// Forgets `replica`'s staged transaction and its changes.
    func removeStagedTransaction(replica: String) throws
    /// Forgets the staged transactions of the tenant last kept at or before `updated` (server
    /// milliseconds); returns how many.
    func removeStagedTransactions(updatedThrough updated: UInt64) throws -> Int
}
