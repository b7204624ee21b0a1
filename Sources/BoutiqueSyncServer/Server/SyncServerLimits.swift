/// How much a sync server takes in and hands out per request: what one tenant's devices can make
/// the server store, and how large an answer grows, whatever they send.
///
/// ```swift
/// var limits = SyncServerLimits()
/// limits.maximumValueBytes = 256 * 1024
/// let server = SyncServer(store: store, limits: limits)
/// ```
///
/// Sizes are measured as the store keeps things: a value's bytes (a text's UTF-8, a blob's bytes, 8 for
/// a number), a row's merged state and a logged change as their encoded records. A JSON answer is larger
/// than what it carries by its encoding (blobs travel as base64, a third more).
///
/// A push over a limit is refused whole, with ``/BoutiqueSync/SyncRefusal/Reason/tooLarge`` (a value or a
/// row's state, HTTP 413) or ``/BoutiqueSync/SyncRefusal/Reason/invalid`` (a name or key, HTTP 400), and
/// nothing of it is stored.
public struct SyncServerLimits: Hashable, Sendable {
    /// The most bytes of changes (pulls) or row states (snapshots) one page carries: 4 MiB by default.
    ///
    /// A page stops before the server transaction (pulls) or row (snapshots) that would pass it and says
    /// there is more; it goes past it only when that one transaction or row alone is larger, since a pull
    /// page ends on whole server transactions (a device applies each as one local transaction, so a
    /// page cut inside one would show it half applied).
    public var maximumPageBytes: Int
    /// The most bytes one pushed column value may have: 1 MiB by default, room for a photo's thumbnail
    /// or a long document; larger files belong in object storage, referenced by the row.
    public var maximumValueBytes: Int
    /// The most bytes a row's merged state may reach (every column's value and stamp, kept whole and
    /// sent whole in snapshots): 4 MiB by default, a few values at the largest, and no more than a page,
    /// so that any row fits a snapshot page of its own.
    public var maximumRowStateBytes: Int
    /// The most UTF-8 bytes of a replica id, and of a stamp's writer id: 128 by default (a device's is a
    /// 36-character UUID). A writer id is kept with every value its transaction wins.
    public var maximumReplicaIDBytes: Int
    /// The most UTF-8 bytes of a table or column name: 256 by default, as for the table shapes devices
    /// describe.
    public var maximumNameBytes: Int
    /// The most bytes of a row's primary-key value (a text's UTF-8 or a blob's bytes): 1 KiB by default,
    /// far more than a UUID or a natural text key needs.
    public var maximumKeyBytes: Int
    /// The most rows one pushed transaction may change: 2,000,000 by default. A transaction too large
    /// for one request comes in parts (``/BoutiqueSync/PushPart``), which the store keeps until
    /// the last one; this bounds what one device's parts can make it keep.
    public var maximumTransactionChanges: Int

    /// Limits, each defaulting to the value its property describes.
    public init(
        maximumPageBytes: Int = 4 << 20, maximumValueBytes: Int = 1 << 20, maximumRowStateBytes: Int = 4 << 20,
        maximumReplicaIDBytes: Int = 128, maximumNameBytes: Int = 256, maximumKeyBytes: Int = 1_024,
        maximumTransactionChanges: Int = 2_000_000
    ) {
        self.maximumTransactionChanges = maximumTransactionChanges
        self.maximumPageBytes = maximumPageBytes
        self.maximumValueBytes = maximumValueBytes
        self.maximumRowStateBytes = maximumRowStateBytes
        self.maximumReplicaIDBytes = maximumReplicaIDBytes
        self.maximumNameBytes = maximumNameBytes
        self.maximumKeyBytes = maximumKeyBytes
    }
}
