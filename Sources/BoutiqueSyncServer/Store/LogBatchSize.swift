/// A server transaction in a tenant's log, as a pull page counts it before reading it.
public struct LogBatchSize: Hashable, Sendable {
    /// The transaction's id: the sequence number of its first change.
    public var batch: Int64
    /// The sequence number of its last change.
    public var last: Int64
    /// How many changes it has (after the position asked from; see ``countedChanges(limit:)``).
    public var changes: Int
    /// The stored size of its changes, in bytes (of those the request can see, when it names spaces).
    public var bytes: Int

    /// The most log entries after the position asked from that ``SyncStoreTransaction/batchSizes(after:limit:)``
    /// reads to count a page of `limit` changes: the page's first `limit` entries, and enough more
    /// to tell that the transaction running on past them is larger than a page carries whole. A
    /// transaction cut there is counted only through it (as more changes than a page carries whole,
    /// which the page then carries in parts), so that counting a page never reads the rest of a
    /// transaction of hundreds of thousands of changes, once for each of its pages.
    ///
    /// ```swift
    /// LogBatchSize.countedChanges(limit: 1_000)   // 2_001
    /// ```
    public static func countedChanges(limit: Int) -> Int {
        let limit = max(limit, 1)
        return limit + max(limit, PullReading.largeTransactionChanges) + 1
    }

    /// The last sequence number a count of the log range (`after`, `through`] under sharing rules reads
    /// (``SyncSpaceStoreTransaction/batchSizes(after:through:visibleIn:)``): ``countedChanges(limit:)`` of the range's
    /// length past `after`. A transaction running on past `through` is counted only so far, enough to
    /// tell that it is larger than a page carries whole.
    ///
    /// ```swift
    /// LogBatchSize.countedThrough(after: 5_000, through: 6_000)   // 7_001
    /// ```
    public static func countedThrough(after: Int64, through: Int64) -> Int64 {
        let length = Int(clamping: max(through.subtractingReportingOverflow(after).partialValue, 1))
        let (end, overflow) = after.addingReportingOverflow(Int64(countedChanges(limit: min(length, Int(Int32.max)))))
        return overflow ? .max : end
    }

    /// A transaction's size.
    public init(batch: Int64, last: Int64, changes: Int, bytes: Int) {
        self.batch = batch
        self.last = last
        self.changes = changes
        self.bytes = bytes
    }
}
