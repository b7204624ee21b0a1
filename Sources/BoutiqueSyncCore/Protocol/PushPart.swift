/// Where one part of a transaction sent in parts belongs (``PushRequest/part``).
///
/// A transaction too large for one request goes as consecutive parts, each with changes of rows the
/// others do not change. Positions are the device's own (increasing, not necessarily consecutive):
/// a part holds the changes after ``from`` through ``through``, and the first part starts at 0. The
/// server keeps each part in order (one after a gap is not kept: its answer names where to go on) and
/// applies the whole transaction, atomically, when the last part comes. Every part carries the
/// device's digest of the whole transaction, which the last part's arrival checks.
///
/// ```swift
/// var request = PushRequest(replica: id, baseTransactionID: acknowledged, baseDigest: digest,
///                           schemaVersion: 1, transactions: [SyncTransaction(id: 9, stamp: stamp, changes: slice)])
/// request.part = PushPart(from: 0, through: 2_000, isLast: false, transactionDigest: digestOfTheWhole)
/// ```
public struct PushPart: Hashable, Sendable, Codable {
    /// The position this part's changes come after (0 for the first part).
    public var from: Int64
    /// The position of this part's last change.
    public var through: Int64
    /// Whether this is the transaction's last part.
    public var isLast: Bool
    /// The digest of the whole transaction (``SyncDigest/of(id:stamp:changes:)`` of all its changes).
    public var transactionDigest: UInt64

    /// A part of a transaction whose whole has digest `transactionDigest`.
    public init(from: Int64, through: Int64, isLast: Bool, transactionDigest: UInt64) {
        self.from = from
        self.through = through
        self.isLast = isLast
        self.transactionDigest = transactionDigest
    }
}
