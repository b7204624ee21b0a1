/// The sync protocol's version; a request of another version is refused.
public enum SyncProtocol {
    /// The version these message types speak.
    public static let version = 1
    /// How far ahead of the server's own time a pushed stamp may be before the push is refused.
    public static let defaultMaximumClockSkewMilliseconds: UInt64 = 10 * 60 * 1000
}

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
    /// server stops waiting for it before collecting tombstones.
    public var retiredReplica: String?

    /// A push of `transactions` after `baseTransactionID`.
    public init(
        replica: String, baseTransactionID: Int64, baseDigest: UInt64?, schemaVersion: Int,
        transactions: [SyncTransaction], retiredReplica: String? = nil, protocolVersion: Int = SyncProtocol.version
    ) {
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
public struct PushResponse: Hashable, Sendable, Codable {
    /// What the server did.
    public enum Outcome: String, Hashable, Sendable, Codable {
        /// Everything through ``PushResponse/appliedThrough`` is applied (now or by an earlier try).
        case accepted
        /// The server's record of this replica (``PushResponse/appliedThrough``, ``PushResponse/digest``)
        /// is not the device's history: the device checks whether it holds that transaction (a lost
        /// acknowledgement) or was restored or cloned (it takes a new replica id). Nothing was applied.
        case mismatch
        /// Refused; see ``PushResponse/reason``. Nothing was applied.
        case refused
    }

    /// What the server did.
    public var outcome: Outcome
    /// The replica's watermark on the server after the request.
    public var appliedThrough: Int64
    /// The digest of the transaction at the watermark, `nil` when none was applied yet.
    public var digest: UInt64?
    /// Why a request was refused.
    public var reason: String?
    /// The server's clock when it answered (a hybrid timestamp), in every reply.
    public var serverTime: HybridTimestamp

    /// An answer to a push.
    public init(outcome: Outcome, appliedThrough: Int64, digest: UInt64?, reason: String? = nil, serverTime: HybridTimestamp) {
        self.outcome = outcome
        self.appliedThrough = appliedThrough
        self.digest = digest
        self.reason = reason
        self.serverTime = serverTime
    }
}

/// `pull`: a device asks for the changes after its cursor, waiting up to ``waitMilliseconds`` for some.
public struct PullRequest: Hashable, Sendable, Codable {
    /// The protocol version the request speaks (``SyncProtocol/version``).
    public var protocolVersion: Int
    /// The pulling replica, whose cursor is recorded for tombstone collection. Its own changes are
    /// not left out (a copied file shares the id until it pushes); devices skip what they wrote.
    public var replica: String
    /// The server sequence number of the last change applied (0 before the first).
    public var cursor: Int64
    /// The most changes wanted (the server finishes the transaction it is in).
    public var limit: Int
    /// How long to wait for a change when there is none yet; 0 answers at once.
    public var waitMilliseconds: Int

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

    /// A logged change.
    public init(sequence: Int64, change: SyncChange) {
        self.sequence = sequence
        self.change = change
    }
}

/// The answer to a ``PullRequest``.
public struct PullResponse: Hashable, Sendable, Codable {
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
    /// The server's clock when it answered, in every reply.
    public var serverTime: HybridTimestamp

    /// An answer to a pull.
    public init(
        outcome: Outcome, changes: [ServerChange], nextCursor: Int64, hasMore: Bool, reason: String? = nil,
        serverTime: HybridTimestamp
    ) {
        self.outcome = outcome
        self.changes = changes
        self.nextCursor = nextCursor
        self.hasMore = hasMore
        self.reason = reason
        self.serverTime = serverTime
    }
}

/// `snapshot`: a new device pages through the server's current state, by table then key.
public struct SnapshotRequest: Hashable, Sendable, Codable {
    /// The protocol version the request speaks (``SyncProtocol/version``).
    public var protocolVersion: Int
    /// The asking replica.
    public var replica: String
    /// The position after which to continue; `nil` for the first page.
    public var after: SnapshotPosition?
    /// The most rows wanted.
    public var limit: Int

    /// A request for the page after `after`.
    public init(replica: String, after: SnapshotPosition?, limit: Int, protocolVersion: Int = SyncProtocol.version) {
        self.protocolVersion = protocolVersion
        self.replica = replica
        self.after = after
        self.limit = limit
    }
}

/// A row's place in the snapshot order.
public struct SnapshotPosition: Hashable, Sendable, Codable {
    /// The table's name.
    public var table: String
    /// The row's primary-key value.
    public var key: DatabaseValue

    /// The position of the row `key` of `table`.
    public init(table: String, key: DatabaseValue) {
        self.table = table
        self.key = key
    }

    private enum CodingKeys: String, CodingKey { case table, key }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        table = try container.decode(String.self, forKey: .table)
        key = try container.decode(WireValue.self, forKey: .key).value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(table, forKey: .table)
        try container.encode(WireValue(key), forKey: .key)
    }
}

/// One row of a snapshot: its whole merge state, tombstones included.
public struct SnapshotRow: Hashable, Sendable, Codable {
    /// The table's name.
    public var table: String
    /// The row's primary-key value.
    public var key: DatabaseValue
    /// The row's merge state.
    public var state: RowRegister

    /// A snapshot row.
    public init(table: String, key: DatabaseValue, state: RowRegister) {
        self.table = table
        self.key = key
        self.state = state
    }

    private enum CodingKeys: String, CodingKey { case table, key, state }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        table = try container.decode(String.self, forKey: .table)
        key = try container.decode(WireValue.self, forKey: .key).value
        state = try container.decode(RowRegister.self, forKey: .state)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(table, forKey: .table)
        try container.encode(WireValue(key), forKey: .key)
        try container.encode(state, forKey: .state)
    }
}

/// The answer to a ``SnapshotRequest``.
public struct SnapshotResponse: Hashable, Sendable, Codable {
    /// The page's rows, in (table, key) order.
    public var rows: [SnapshotRow]
    /// Where the next page starts; `nil` after the last page.
    public var next: SnapshotPosition?
    /// The log position the state includes at least: pull from here once every page is applied.
    public var cursor: Int64
    /// Why the request was refused, when it was.
    public var reason: String?
    /// The server's clock when it answered, in every reply.
    public var serverTime: HybridTimestamp

    /// A snapshot page.
    public init(rows: [SnapshotRow], next: SnapshotPosition?, cursor: Int64, reason: String? = nil, serverTime: HybridTimestamp) {
        self.rows = rows
        self.next = next
        self.cursor = cursor
        self.reason = reason
        self.serverTime = serverTime
    }
}

/// What answers sync requests: the server's logic in this process, or (through a transport) one
/// across the network. `tenant` keeps one customer's data from another's.
///
/// ```swift
/// let response = try await server.push(request, tenant: "acme")
/// ```
public protocol SyncEndpoint: Sendable {
    /// Applies a device's transactions.
    func push(_ request: PushRequest, tenant: String) async throws -> PushResponse
    /// Returns the changes after a cursor.
    func pull(_ request: PullRequest, tenant: String) async throws -> PullResponse
    /// Returns a page of the current state.
    func snapshot(_ request: SnapshotRequest, tenant: String) async throws -> SnapshotResponse
}
