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
    /// Whether the answer should count the rows the server holds (``SnapshotResponse/totalRows``)
    /// although this is not the first page: a device resuming a bootstrap asks once. The first page
    /// (`after` is `nil`) always carries the count. `nil` from devices that predate it.
    public var includeTotal: Bool?
    /// Only this space's rows: a device moving in a space it joined. The server answers with nothing
    /// unless the user is a member.
    public var space: SyncSpace?
    /// Whether the answer should carry its rows packed (``SnapshotResponse/packedRows``) instead of as
    /// ``SnapshotResponse/rows``: a transport that serializes asks (``HTTPSyncTransport`` does), an
    /// in-process one need not. `nil` from devices that predate packed rows, which get rows; a server
    /// that predates them ignores the field and sends rows, which such a device reads as before.
    public var packsRows: Bool?

    /// A request for the page after `after`.
    public init(
        replica: String, after: SnapshotPosition?, limit: Int, includeTotal: Bool? = nil, space: SyncSpace? = nil,
        packsRows: Bool? = nil, protocolVersion: Int = SyncProtocol.version
    ) {
        self.protocolVersion = protocolVersion
        self.replica = replica
        self.after = after
        self.limit = limit
        self.includeTotal = includeTotal
        self.space = space
        self.packsRows = packsRows
    }
}

/// A row's place in the snapshot order: (space, table, key) on a server with rules, (table, key)
/// without.
public struct SnapshotPosition: Hashable, Sendable, Codable {
    /// The table's name.
    public var table: String
    /// The row's primary-key value.
    public var key: DatabaseValue
    /// The row's space, on a server with rules (whose snapshots go space by space).
    public var space: SyncSpace?

    /// The position of the row `key` of `table`.
    public init(table: String, key: DatabaseValue, space: SyncSpace? = nil) {
        self.table = table
        self.key = key
        self.space = space
    }

    private enum CodingKeys: String, CodingKey { case table, key, space }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        table = try container.decode(String.self, forKey: .table)
        key = try container.decode(WireValue.self, forKey: .key).value
        space = try container.decodeIfPresent(SyncSpace.self, forKey: .space)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(table, forKey: .table)
        try container.encode(WireValue(key), forKey: .key)
        try container.encodeIfPresent(space, forKey: .space)
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
    /// The row's space when it is not the common space (servers with rules).
    public var space: SyncSpace?

    /// A snapshot row.
    public init(table: String, key: DatabaseValue, state: RowRegister, space: SyncSpace? = nil) {
        self.table = table
        self.key = key
        self.state = state
        self.space = space?.isCommon == true ? nil : space
    }

    private enum CodingKeys: String, CodingKey { case table, key, state, space }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        table = try container.decode(String.self, forKey: .table)
        key = try container.decode(WireValue.self, forKey: .key).value
        state = try container.decode(RowRegister.self, forKey: .state)
        space = try container.decodeIfPresent(SyncSpace.self, forKey: .space)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(table, forKey: .table)
        try container.encode(WireValue(key), forKey: .key)
        try container.encode(state, forKey: .state)
        try container.encodeIfPresent(space, forKey: .space)
    }
}

/// The answer to a ``SnapshotRequest``.
public struct SnapshotResponse: Hashable, Sendable, Codable, SyncServerIdentified {
    /// The page's rows, in (table, key) order; empty when they travel as ``packedRows``.
    public var rows: [SnapshotRow]
    /// The page's rows packed (``PackedSnapshotRows``), when the request asked for them so
    /// (``SnapshotRequest/packsRows``); ``rows`` is then empty. ``unpackRows()`` moves them back.
    public var packedRows: PackedSnapshotRows?
    /// Where the next page starts; `nil` after the last page.
    public var next: SnapshotPosition?
    /// The log position the state includes at least: pull from here once every page is applied.
    public var cursor: Int64
    /// Why the request was refused, when it was.
    public var reason: String?
    /// What kind of refusal it is, when the request was refused (older servers leave it out).
    public var refusal: SyncRefusal.Reason?
    /// The server's clock when it answered, in every reply.
    public var serverTime: HybridTimestamp
    /// The server that answered (``SyncServerID``); `nil` from servers that predate identities.
    public var server: SyncServerID?
    /// How many rows (tombstones included) the server holds for the tenant, the whole snapshot's
    /// length: on the first page and when the request asked for it; `nil` otherwise, and from servers
    /// that predate it.
    public var totalRows: Int?

    /// A snapshot page.
    public init(
        rows: [SnapshotRow], next: SnapshotPosition?, cursor: Int64, reason: String? = nil, refusal: SyncRefusal.Reason? = nil,
        serverTime: HybridTimestamp, totalRows: Int? = nil
    ) {
        self.rows = rows
        self.next = next
        self.cursor = cursor
        self.reason = reason
        self.refusal = refusal
        self.serverTime = serverTime
        self.totalRows = totalRows
    }
}

extension SnapshotResponse {
    /// Moves ``rows`` into ``packedRows``, for the wire.
    public mutating func packRows() {
        packedRows = PackedSnapshotRows(rows)
        rows = []
    }

    /// Moves ``packedRows``, when there are, back into ``rows``.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncRefused(reason:)`` for packed rows that do not unpack:
    ///   they came from the network.
    public mutating func unpackRows() throws {
        guard let packedRows else { return }
        rows += try packedRows.rows()
        self.packedRows = nil
    }
}
