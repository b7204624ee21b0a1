/// `push`: a device sends its local transactions after the ones the server acknowledged.
///
/// ```swift
/// PushRequest(replica: id, baseTransactionID: acknowledged, baseDigest: digest, schemaVersion: 2,
///             transactions: outbox)
/// ```
public struct PushRequest: Hashable, Sendable, Codable {
    /// The protocol version the request speaks (``SyncProtocol/version``).
    public var protocolVersion: Int
    /// The pushing replica.
    public var replica: String
    /// The last transaction the device knows the server applied (0 before the first).
    public var baseTransactionID: Int64
    /// That transaction's digest, `nil` before the first.
    public var baseDigest: UInt64?
    /// The app's schema version for the synced tables (how many changes the schema has had).
    public var schemaVersion: Int
    /// Whole transactions, in id order.
    public var transactions: [SyncTransaction]
    /// A replica id this device used before and gave up (after a restore or a clone), so that the
    /// server stops waiting for it before collecting tombstones. The server retires it only with
    /// ``retiredReplicaSecret``.
    public var retiredReplica: String?
    /// The secret ``retiredReplica`` was bound to (the device keeps the secret of every id it took):
    /// the proof that the id is this device's to give up. A push without it, or with another, is
    /// applied without retiring the id, which then stays until it has not been seen for the server's
    /// retention period.
    public var retiredReplicaSecret: String?
    /// The synced tables as the device knows them (columns and foreign keys): a server with rules
    /// learns from them which table a follower's column points to. `nil` leaves what the server knows.
    public var tables: [SyncTableShape]?
    /// The secret the device made when it took its replica id (``PullRequest/replicaSecret``): the
    /// server binds the replica id to it at the first push that carries one, and refuses pushes and
    /// pulls under that id without it. `nil` from devices that predate it.
    public var replicaSecret: String?
    /// Set when the request carries one part of a transaction too large for one request: then
    /// ``transactions`` holds that transaction alone, with this part's changes. The server keeps the
    /// parts and applies the transaction, whole, when the last one comes. `nil` for a push of whole
    /// transactions. Sent only to a server that said it takes parts
    /// (``PushResponse/acceptsTransactionParts``).
    public var part: PushPart?

    /// A push of `transactions` after `baseTransactionID`.
    public init(
        replica: String, baseTransactionID: Int64, baseDigest: UInt64?, schemaVersion: Int,
        transactions: [SyncTransaction], retiredReplica: String? = nil, tables: [SyncTableShape]? = nil,
        protocolVersion: Int = SyncProtocol.version
    ) {
        self.tables = tables
        self.protocolVersion = protocolVersion
        self.replica = replica
        self.baseTransactionID = baseTransactionID
        self.baseDigest = baseDigest
        self.schemaVersion = schemaVersion
        self.transactions = transactions
        self.retiredReplica = retiredReplica
    }
}

/// The answer to a ``PushRequest``.
public struct PushResponse: Hashable, Sendable, Codable, SyncServerIdentified {
    /// What the server did.
    public enum Outcome: String, Hashable, Sendable, Codable {
        /// Everything through ``PushResponse/appliedThrough`` is applied (now or by an earlier try).
        case accepted
        /// The server's record of this replica (``PushResponse/appliedThrough``, ``PushResponse/digest``)
        /// is not the device's history: the device checks whether it holds that transaction (a lost
        /// acknowledgement) or was restored or cloned (it takes a new replica id). A record behind what
        /// the device holds as acknowledged (0 for a replica the server does not know, pushing from a
        /// later base) is a server restored from a backup: the device sends again what it had
        /// acknowledged since. Nothing was applied.
        case mismatch
        /// Refused; see ``PushResponse/reason``. Nothing was applied.
        case refused
        /// A change the pushing user may not make; see ``PushResponse/reason``. Nothing was applied.
        /// Servers of this version refuse single transactions instead (``PushResponse/refusals``, with
        /// ``accepted``); older ones refused the whole push so.
        case forbidden
    }

    /// What the server did.
    public var outcome: Outcome
    /// The replica's watermark on the server after the request.
    public var appliedThrough: Int64
    /// The digest of the transaction at the watermark, `nil` when none was applied yet.
    public var digest: UInt64?
    /// Why a request was refused.
    public var reason: String?
    /// What kind of refusal it is, when the request was refused (older servers leave it out).
    public var refusal: SyncRefusal.Reason?
    /// The server's clock when it answered (a hybrid timestamp), in every reply.
    public var serverTime: HybridTimestamp
    /// The server that answered (``SyncServerID``); `nil` from servers that predate identities.
    public var server: SyncServerID?
    /// Transactions of the push the server refused one by one (the user may not make them): handled,
    /// not applied. `nil` or empty when there were none. With ``Outcome/mismatch``, and with
    /// ``Outcome/refused`` for stamps too far ahead: the refusals the server recorded for the replica
    /// after the push's base through ``appliedThrough``, without their rows, which a device that takes
    /// ``appliedThrough`` as its own (its file holds that transaction) undoes first.
    public var refusals: [PushRefusal]?
    /// On a server with rules, the space each row the push changed went to (the position's
    /// ``SnapshotPosition/space``), in the order of the changes: a device learns where its own rows
    /// went, so that leaving a space takes them too. A row changed twice is there twice, its latest
    /// space last.
    public var spaces: [SnapshotPosition]?
    /// Whether the server takes transactions in parts (``PushRequest/part``); `nil` from servers that
    /// do not, to which a device sends every transaction whole.
    public var acceptsTransactionParts: Bool?
    /// For a part of a transaction (``PushRequest/part``) that the server kept: the position through
    /// which it holds the transaction's changes. The device sends the part after it next, whatever it
    /// sent before (a part sent again is not kept twice; one sent past a gap is not kept at all).
    public var receivedThrough: Int64?
    /// Where the transactions this request applied are in the log (one a transaction, at its last
    /// change; sequence number 0 for one that changed nothing, having lost everywhere, and so is in no
    /// log): the device learns where its own writes are, to tell later whether another device's change
    /// was made knowing them (``SyncChange/seen``). Transactions applied by an earlier try of the same
    /// push are not there. `nil` from servers that predate it.
    public var logged: [LoggedTransaction]?

    /// An answer to a push.
    public init(
        outcome: Outcome, appliedThrough: Int64, digest: UInt64?, reason: String? = nil, refusal: SyncRefusal.Reason? = nil,
        serverTime: HybridTimestamp, refusals: [PushRefusal]? = nil
    ) {
        self.refusals = refusals
        self.outcome = outcome
        self.appliedThrough = appliedThrough
        self.digest = digest
        self.reason = reason
        self.refusal = refusal
        self.serverTime = serverTime
    }
}
