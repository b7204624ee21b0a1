import Foundation

/// How a ``BoutiqueSync`` syncs.
///
/// ```swift
/// let sync = try await BoutiqueSync(database: db, tables: [Note.self, Tag.self], server: .inProcess(server),
///                                   options: SyncOptions(rowLevelTables: ["tag"]))
/// ```
public struct SyncOptions: Sendable {
    /// Tables merged row by row instead of column by column: the whole row of the latest write wins
    /// (each update carries every column).
    public var rowLevelTables: Set<String>
    /// Columns merged character by character, as `table.column` (TEXT columns of synced tables):
    /// concurrent edits of the same text both survive (see ``CollaborativeText`` and the Sync
    /// article's "Collaborative text"). Every device of a server must name the same columns.
    ///
    /// ```swift
    /// let options = SyncOptions(collaborativeText: ["note.body"])
    /// ```
    public var collaborativeText: Set<String>
    /// About how many change-log rows one push carries.
    public var pushRowLimit: Int
    /// How many changes one pull asks for.
    public var pullLimit: Int
    /// How long a started sync's pull waits on the server for new changes.
    public var pullWait: Duration
    /// How long a started sync waits before trying again after an error.
    public var retryInterval: Duration
    /// Whether the change log is pruned of transactions the server acknowledged (never further).
    public var prunesAcknowledgedChanges: Bool
    /// The wall clock stamps are taken from, in milliseconds since 1970; `nil` for the system clock.
    /// Simulations pass a virtual one.
    public var wallClock: (@Sendable () -> UInt64)?
    /// Makes replica and writer ids; `nil` for random ones. Simulations pass a seeded generator so that
    /// a run replays exactly.
    public var makeIdentifier: (@Sendable () -> String)?
    /// Which attachments' bytes a started sync fetches without being asked: ``AttachmentPolicy/onDemand``
    /// (the default) or every one up to a size (``AttachmentPolicy/eager(maxBytes:)``).
    public var attachments: AttachmentPolicy
    /// The most bytes of attachments the server holds that this device keeps, or `nil` (the default)
    /// for no limit. Past it, the least recently used are taken off the device (a fetch brings them
    /// back); use is any read of the bytes, by any process (see ``/BoutiqueDB/AttachmentStore``).
    ///
    /// ```swift
    /// let options = SyncOptions(attachments: .eager(maxBytes: 5_000_000), attachmentCacheBytes: 500_000_000)
    /// ```
    ///
    /// Only bytes the server confirmed to this device count: bytes waiting to upload, or refused, are
    /// never evicted, nor bytes a row of a table that does not sync points at. The attachments fetches
    /// are bringing stay, even alone larger than the budget. An
    /// eager round (``AttachmentPolicy/eager(maxBytes:)``) fetches only what fits in the room left, and
    /// evicts nothing: what it would fetch next is never more used than what is here. The budget is kept
    /// after each fetch and each upload round.
    public var attachmentCacheBytes: Int64?

    /// Options; every parameter has the default described on its property.
    public init(
        rowLevelTables: Set<String> = [], pushRowLimit: Int = 2_000, pullLimit: Int = 1_000,
        pullWait: Duration = .seconds(25), retryInterval: Duration = .seconds(5), prunesAcknowledgedChanges: Bool = true,
        wallClock: (@Sendable () -> UInt64)? = nil, makeIdentifier: (@Sendable () -> String)? = nil,
        collaborativeText: Set<String> = [], attachments: AttachmentPolicy = .onDemand, attachmentCacheBytes: Int64? = nil
    ) {
        self.collaborativeText = collaborativeText
        self.attachments = attachments
        self.attachmentCacheBytes = attachmentCacheBytes
        self.makeIdentifier = makeIdentifier
        self.rowLevelTables = rowLevelTables
        self.pushRowLimit = pushRowLimit
        self.pullLimit = pullLimit
        self.pullWait = pullWait
        self.retryInterval = retryInterval
        self.prunesAcknowledgedChanges = prunesAcknowledgedChanges
        self.wallClock = wallClock
    }

    /// The clock to stamp with.
    var now: @Sendable () -> UInt64 {
        wallClock ?? { UInt64(max(0, Date().timeIntervalSince1970 * 1000)) }
    }
}
