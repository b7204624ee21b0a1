/// What a member of a shared space may do.
///
/// ```swift
/// try await sync.share(RemindersList.self, key: list.id, with: "bob", role: .viewer)
/// ```
public enum SyncRole: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    /// Reads the space's rows.
    case viewer
    /// Reads, inserts, updates and deletes the space's rows (the root row's delete excepted).
    case editor
    /// Created the root row: everything an editor does, and deletes the root, shares and unshares.
    case owner

    /// Whether the role may insert, update and delete the space's rows.
    public var canWrite: Bool { self != .viewer }

    /// Viewer, then editor, then owner: each may do what the ones before it may.
    public static func < (lhs: SyncRole, rhs: SyncRole) -> Bool { lhs.rank < rhs.rank }

    private var rank: Int {
        switch self {
        case .viewer: 0
        case .editor: 1
        case .owner: 2
        }
    }
}

/// A member of a shared space.
///
/// ```swift
/// let members = try await sync.share(RemindersList.self, key: list.id, with: "bob", role: .viewer)
/// for member in members where member.hasConnected == false {
///     print("\(member.user) has not synced yet: check the id, or invite them")
/// }
/// ```
public struct SyncMember: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The user, as the tokens of their devices name them.
    public var user: String
    /// What they may do.
    public var role: SyncRole
    /// Whether a device (or a tool) with a token naming the user has reached the server in this
    /// tenant: it pushed, as every device does when it starts syncing, or shared or listed members.
    /// `false` for a user id nothing has used yet — someone who has not installed the app yet, or a
    /// mistyped id, which the server cannot tell apart, since users are whoever tokens name. Sharing
    /// with such an id succeeds, and the user's devices receive the space when they first sync.
    /// `nil` when not known (from a server that predates it). A server counts what it saw from this
    /// version on: a user whose devices last synced with an older server counts once they sync again.
    public var hasConnected: Bool?

    /// A member.
    public init(user: String, role: SyncRole, hasConnected: Bool? = nil) {
        self.user = user
        self.role = role
        self.hasConnected = hasConnected
    }

    /// Whether two members name the same user with the same role: whether the user has connected is
    /// a note of the answer that listed them, not part of the membership.
    public static func == (lhs: SyncMember, rhs: SyncMember) -> Bool { lhs.user == rhs.user && lhs.role == rhs.role }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(user)
        hasher.combine(role)
    }

    /// `user role`, one member per line in `boutique members`, with `(not connected yet)` after a user
    /// nothing has used yet (``hasConnected`` `false`).
    public var description: String { "\(user) \(role.rawValue)\(hasConnected == false ? " (not connected yet)" : "")" }
}
