/// A server transaction in a tenant's log, as a pull page counts it before reading it.
public struct LogBatchSize: Hashable, Sendable {
    /// The transaction's id: the sequence number of its first change.
    public var batch: Int64
    /// The sequence number of its last change.
    public var last: Int64
    /// How many changes it has (after the position asked from).
    public var changes: Int
    /// The stored size of its changes, in bytes (of those the request can see, when it names spaces).
    public var bytes: Int

    /// A transaction's size.
    public init(batch: Int64, last: Int64, changes: Int, bytes: Int) {
        self.batch = batch
        self.last = last
        self.changes = changes
        self.bytes = bytes
    }
}
