import Foundation

/// Where sync stands, for a status line: what it is doing, how many local transactions wait to be
/// pushed, and whether and when it last synced. Read it on the main actor from ``BoutiqueSync/status``.
///
/// ```swift
/// switch sync.status.activity {
/// case .idle: Text(sync.status.pendingCount == 0 ? "Up to date" : "\(sync.status.pendingCount) waiting")
/// case .pushing: Text("Sending…")
/// case .pulling: Text("Receiving…")
/// case .bootstrapping(let progress): ProgressView(value: progress.fractionCompleted ?? 0)
/// case .offline(let error): Text("Offline: \(error)")
/// case .refused(let refusal): Text("Sync stopped: \(refusal.message)")
/// }
/// ```
public struct SyncStatus: Sendable, Hashable {
    /// What sync is doing.
    public enum Activity: Sendable, Hashable {
        /// Nothing to do: caught up and waiting for changes (or stopped).
        case idle
        /// Sending local changes to the server.
        case pushing
        /// Applying changes pulled from the server.
        case pulling
        /// Receiving the server's data for the first time (or again), with how far it got.
        case bootstrapping(BootstrapProgress)
        /// The server could not be reached; sync retries on its own when started.
        case offline(BoutiqueError)
        /// The server refused the last request. A refusal of the device itself
        /// (``SyncRefusal/Reason/stopsSync``: a token new credentials did not fix, an app too old) stops
        /// background sync until the app acts; others are retried like an outage.
        case refused(SyncRefusal)
    }

    /// What sync is doing.
    public var activity: Activity
    /// Local transactions to synced tables that the server has not acknowledged yet, updated after every
    /// local commit whether sync is started or not: a write made through this database is counted by
    /// the time it returns.
    public var pendingCount: Int
    /// When a sync last finished without error (in this process).
    public var lastSync: Date?
    /// Whether this database has ever received the server's data (its bootstrap finished).
    public var hasSynced: Bool
    /// The latest refusal of what sync does on its own, also one of a single transaction that sync got
    /// past; a refused share, unshare or members call is thrown to its caller instead.
    public var lastRefusal: SyncRefusal?
    /// Attachments rows of this database pointed at whose bytes have not been confirmed by the server
    /// yet (``SyncAttachments``), as last counted: after each push and upload, and when sync starts.
    /// Those the server refused are not among them: see ``attachmentsRefused``.
    public var attachmentsWaitingToUpload: Int
    /// Attachments whose upload the server refused (too large, past the quota, not the id's bytes),
    /// kept on this device and not sent again: ``SyncAttachments/refused()`` says which and why.
    ///
    /// ```swift
    /// if sync.status.attachmentsRefused > 0 { showBadge(try await sync.attachments.refused()) }
    /// ```
    public var attachmentsRefused: Int
    /// Attachments an eager policy (``SyncOptions/attachments``) could not fetch in the last round: the
    /// server refused them or sent other bytes, or the connection dropped. They stay missing and are
    /// tried again at the next round; ``SyncAttachments/fetch(_:waitingForUpload:)`` of one throws
    /// why. Their rows synced all the same. Attachments not uploaded yet are not among them.
    public var attachmentsNotFetched: Int

    /// A status; sync starts idle with nothing pending.
    public init(
        activity: Activity = .idle, pendingCount: Int = 0, lastSync: Date? = nil, hasSynced: Bool = false,
        lastRefusal: SyncRefusal? = nil, attachmentsWaitingToUpload: Int = 0, attachmentsRefused: Int = 0,
        attachmentsNotFetched: Int = 0
    ) {
        self.attachmentsWaitingToUpload = attachmentsWaitingToUpload
        self.attachmentsRefused = attachmentsRefused
        self.attachmentsNotFetched = attachmentsNotFetched
        self.activity = activity
        self.pendingCount = pendingCount
        self.lastSync = lastSync
        self.hasSynced = hasSynced
        self.lastRefusal = lastRefusal
    }

    /// Whether the last attempt could not reach the server.
    public var isOffline: Bool { if case .offline = activity { true } else { false } }
}

/// How far a bootstrap got: rows received so far, of the total the server holds.
///
/// ```swift
/// if case .bootstrapping(let progress) = sync.status.activity {
///     print("\(progress.rowsDone) of \(progress.totalRows.map(String.init) ?? "?") rows")
/// }
/// ```
public struct BootstrapProgress: Sendable, Hashable {
    /// Rows received and merged so far.
    public var rowsDone: Int
    /// The rows the server holds for this database, when it said.
    public var totalRows: Int?

    /// Progress of `rowsDone` out of `totalRows`.
    public init(rowsDone: Int, totalRows: Int?) {
        self.rowsDone = rowsDone
        self.totalRows = totalRows
    }

    /// `rowsDone / totalRows` between 0 and 1, when the total is known.
    public var fractionCompleted: Double? {
        guard let totalRows else { return nil }
        guard totalRows > 0 else { return 1 }
        return min(1, Double(rowsDone) / Double(totalRows))
    }
}

/// What one ``BoutiqueSync/synchronize()`` did.
///
/// ```swift
/// let report = try await sync.synchronize()
/// print("pushed \(report.pushed), applied \(report.applied)")
/// ```
public struct SyncReport: Sendable, Hashable {
    /// Row changes the server newly acknowledged.
    public var pushed: Int
    /// Row changes made by others, pulled from the server and merged; of a snapshot (a first sync, or
    /// one the server asked for), the rows that merging it changed on this device. The device's own
    /// rows, which a snapshot sends back as the server holds them, do not count unless another device
    /// changed them.
    public var applied: Int
    /// The server found behind the address in place of the one this file last synced with there
    /// (another store answers at that address now): the file's progress with it started anew, with a
    /// bootstrap; `nil` when the server is the one it was. The same server reached through another
    /// spelling of its address, or with other credentials, is not a new server.
    public var newServer: SyncServerID?

    /// A report of `pushed` and `applied` row changes.
    public init(pushed: Int = 0, applied: Int = 0, newServer: SyncServerID? = nil) {
        self.pushed = pushed
        self.applied = applied
        self.newServer = newServer
    }
}
