/// `pull`: a device asks for the changes after its cursor, waiting up to ``waitMilliseconds`` for some.
public struct PullRequest: Hashable, Sendable, Codable {
    /// The protocol version the request speaks (``SyncProtocol/version``).
    public var protocolVersion: Int
    /// The pulling replica, whose cursor is recorded for tombstone collection. The changes it pushed
    /// itself are left out of the answer (the cursor still moves past them).
    public var replica: String
    /// The server sequence number of the last change applied (0 before the first).
    public var cursor: Int64
    /// The most changes wanted (the server finishes the transaction it is in).
    public var limit: Int
    /// How long to wait for a change when there is none yet; 0 answers at once.
    public var waitMilliseconds: Int
    /// The secret the device made when it took its replica id: a replica id bound to a secret (by a
    /// push) is answered only with that secret, since a pull tells the replica's watermark. `nil` from
    /// devices that predate it.
    public var replicaSecret: String?
    /// How far the device has passed the log, for garbage collection: ``cursor`` (what it has applied,
    /// for sure), or less when it made collaborative text edits the server has not acknowledged yet
    /// from an earlier cursor. The server counts the device as having passed the smaller of this and
    /// where the page it answers ends, so that it drops nothing (no tombstone, no deleted character
    /// of a text) that the device has not applied or that its edits may still name: a page the device
    /// never got (a lost answer) is not counted as passed. `nil` from devices that predate it: the
    /// page's end counts.
    public var passedThrough: Int64?

    /// A pull from `cursor`.
    public init(replica: String, cursor: Int64, limit: Int, waitMilliseconds: Int = 0, protocolVersion: Int = SyncProtocol.version) {
        self.protocolVersion = protocolVersion
        self.replica = replica
        self.cursor = cursor
        self.limit = limit
        self.waitMilliseconds = waitMilliseconds
    }
}

/// A change as the server's log holds it.
public struct ServerChange: Hashable, Sendable, Codable {
    /// Its position in the tenant's log.
    public var sequence: Int64
    /// The change itself.
    public var change: SyncChange
    /// The space of the row after the change, when it is not the common space (servers with rules).
    public var space: SyncSpace?

    /// A logged change.
    public init(sequence: Int64, change: SyncChange, space: SyncSpace? = nil) {
        self.sequence = sequence
        self.change = change
        self.space = space?.isCommon == true ? nil : space
    }
}

/// The answer to a ``PullRequest``.
public struct PullResponse: Hashable, Sendable, Codable, SyncServerIdentified {
    /// What the server did.
    public enum Outcome: String, Hashable, Sendable, Codable {
        /// ``PullResponse/changes`` follow the cursor.
        case changes
        /// The server no longer keeps the changes after the cursor: bootstrap again from a snapshot.
        case resetRequired
        /// Refused; see ``PullResponse/reason``.
        case refused
    }

    /// What the server did.
    public var outcome: Outcome
    /// Whole server transactions, in log order.
    public var changes: [ServerChange]
    /// The cursor to pull from next (past the last change returned, or past changes skipped).
    public var nextCursor: Int64
    /// Whether more changes wait after ``nextCursor``.
    public var hasMore: Bool
    /// Why the request was refused, when it was.
    public var reason: String?
    /// What kind of refusal it is, when the request was refused (older servers leave it out).
    public var refusal: SyncRefusal.Reason?
    /// The server's clock when it answered, in every reply.
    public var serverTime: HybridTimestamp
    /// The server that answered (``SyncServerID``); `nil` from servers that predate identities.
    public var server: SyncServerID?
    /// The pulling replica's watermark on the server (its latest transaction applied), when it pushed
    /// any and the pull carried the replica's secret (or the replica has none yet): a device whose own record is behind it learns that a copy of its file pushed under the same
    /// replica id (whose changes the server left out as the device's own), or that an acknowledgement
    /// was lost.
    public var replicaWatermark: Int64?
    /// The digest of the transaction at ``replicaWatermark``.
    public var replicaDigest: UInt64?
    /// Changes of what the pulling user sees (spaces joined or left, rows moved in or out), in log
    /// order with ``changes``; `nil` when there are none.
    public var events: [SpaceEvent]?
    /// Where the pulling replica's own transactions that the page passes are in the log (they are left
    /// out of ``changes``): with each change's ``SyncChange/seen`` the device tells whether its writer
    /// had this device's write when it overwrote it. `nil` when there are none (and from servers that
    /// predate it).
    public var ownTransactions: [LoggedTransaction]?
    /// With ``Outcome/resetRequired`` for a cursor past the end of the server's log, where the log
    /// ends: the server lost history the device had pulled (it was restored from a backup), so the
    /// device's rows the server lacks are not rows it forgot, and the device's bootstrap keeps them.
    /// `nil` otherwise (and from servers that predate it).
    ///
    /// ```swift
    /// if response.outcome == .resetRequired, let end = response.logEnd, cursor > end { /* merge, drop nothing */ }
    /// ```
    public var logEnd: Int64?

    /// An answer to a pull.
    public init(
        outcome: Outcome, changes: [ServerChange], nextCursor: Int64, hasMore: Bool, reason: String? = nil, refusal: SyncRefusal.Reason? = nil,
        serverTime: HybridTimestamp
    ) {
        self.outcome = outcome
        self.changes = changes
        self.nextCursor = nextCursor
        self.hasMore = hasMore
        self.reason = reason
        self.refusal = refusal
        self.serverTime = serverTime
    }
}

/// Where a transaction is in the server's log: its stamp, and the sequence number of its last change.
///
/// ```swift
/// for own in response.ownTransactions ?? [] { print(own.stamp, own.sequence) }
/// ```
///
/// A writer whose pull cursor (``SyncChange/seen``) is at or past ``sequence`` had the transaction
/// when it wrote.
public struct LoggedTransaction: Hashable, Sendable, Codable {
    /// The transaction's stamp.
    public var stamp: SyncStamp
    /// The sequence number of its last change in the log.
    public var sequence: Int64

    /// A transaction's place in the log.
    public init(stamp: SyncStamp, sequence: Int64) {
        self.stamp = stamp
        self.sequence = sequence
    }

    /// The transactions of `entries` (sequence numbers and stamps, in log order), each at its last
    /// change.
    public static func transactions(of entries: some Sequence<(sequence: Int64, stamp: SyncStamp)>) -> [LoggedTransaction] {
        var found: [LoggedTransaction] = []
        for entry in entries {
            if let last = found.last, last.stamp == entry.stamp {
                found[found.count - 1].sequence = max(last.sequence, entry.sequence)
            } else {
                found.append(LoggedTransaction(stamp: entry.stamp, sequence: entry.sequence))
            }
        }
        return found
    }
}
