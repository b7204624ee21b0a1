/// What a ``MembershipRequest`` asks for.
public enum MembershipAction: String, Sendable, Hashable, Codable, CaseIterable {
    /// Gives a user a role in the space (a new member, or a member's new role).
    case share
    /// Removes a user from the space.
    case unshare
    /// Lists the space's members.
    case members
}

/// `share`, `unshare` and `members`: the owner of a shared space changes who may see it, and any
/// member reads who does.
///
/// One request type serves the three endpoints: `share` needs ``user`` and ``role``, `unshare` needs
/// ``user``, `members` neither. The space is the root row ``table`` / ``key`` (lowercased table, as sync
/// names tables).
public struct MembershipRequest: Hashable, Sendable, Codable {
    /// The protocol version the request speaks (``SyncProtocol/version``).
    public var protocolVersion: Int
    /// The root table.
    public var table: String
    /// The root row's key.
    public var key: DatabaseValue
    /// The user to share with or unshare from.
    public var user: String?
    /// The role to give (``SyncRole/viewer`` or ``SyncRole/editor``).
    public var role: SyncRole?

    /// A request about the space of root row `key` of `table`.
    public init(table: String, key: DatabaseValue, user: String? = nil, role: SyncRole? = nil, protocolVersion: Int = SyncProtocol.version) {
        self.protocolVersion = protocolVersion
        self.table = table.lowercased()
        self.key = key
        self.user = user
        self.role = role
    }

    /// The space the request is about.
    public var space: SyncSpace { .shared(table: table, key: key) }

    private enum CodingKeys: String, CodingKey { case protocolVersion, table, key, user, role }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        protocolVersion = try container.decode(Int.self, forKey: .protocolVersion)
        table = try container.decode(String.self, forKey: .table).lowercased()
        key = try container.decode(WireValue.self, forKey: .key).value
        user = try container.decodeIfPresent(String.self, forKey: .user)
        role = try container.decodeIfPresent(SyncRole.self, forKey: .role)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(protocolVersion, forKey: .protocolVersion)
        try container.encode(table, forKey: .table)
        try container.encode(WireValue(key), forKey: .key)
        try container.encodeIfPresent(user, forKey: .user)
        try container.encodeIfPresent(role, forKey: .role)
    }
}

/// The answer to a ``MembershipRequest``: the space's members after the request, or why it was refused.
public struct MembershipResponse: Hashable, Sendable, Codable {
    /// The members, owner first, then by user; empty when refused.
    public var members: [SyncMember]
    /// Why the request was refused, when it was.
    public var reason: String?
    /// What kind of refusal it is (``SyncRefusal/Reason/forbidden`` for a user who is not the owner).
    public var refusal: SyncRefusal.Reason?
    /// The server's clock when it answered.
    public var serverTime: HybridTimestamp

    /// An answer.
    public init(members: [SyncMember], reason: String? = nil, refusal: SyncRefusal.Reason? = nil, serverTime: HybridTimestamp) {
        self.members = members
        self.reason = reason
        self.refusal = refusal
        self.serverTime = serverTime
    }
}
