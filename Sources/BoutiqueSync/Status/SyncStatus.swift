import Foundation

/// Where sync stands: what it is doing, how many local transactions wait to be pushed, and when it
/// last finished a sync.
///
/// ```swift
/// switch sync.status.activity {
/// case .idle: print("up to date as of", sync.status.lastSync as Any)
/// case .syncing: print("syncing…")
/// case .offline(let error): print("offline:", error)
/// }
/// ```
public struct SyncStatus: Sendable, Hashable {
    /// What sync is doing.
    public enum Activity: Sendable, Hashable {
        /// Not syncing right now (stopped, or caught up and waiting).
        case idle
        /// Pushing or pulling.
        case syncing
        /// The last attempt failed; sync retries on its own when started.
        case offline(BoutiqueError)
    }

    /// What sync is doing.
    public var activity: Activity
    /// Local transactions not yet acknowledged by the server.
    public var pendingCount: Int
    /// When a sync last finished without error.
    public var lastSync: Date?

    /// A status; sync starts idle with nothing pending.
    public init(activity: Activity = .idle, pendingCount: Int = 0, lastSync: Date? = nil) {
        self.activity = activity
        self.pendingCount = pendingCount
        self.lastSync = lastSync
    }

    /// Whether the last attempt failed.
    public var isOffline: Bool { if case .offline = activity { true } else { false } }
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
    /// Row changes (and snapshot rows) pulled from the server and merged.
    public var applied: Int

    /// A report of `pushed` and `applied` row changes.
    public init(pushed: Int = 0, applied: Int = 0) {
        self.pushed = pushed
        self.applied = applied
    }
}
