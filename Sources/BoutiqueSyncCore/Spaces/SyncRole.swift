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
public struct SyncMember: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The user, as the tokens of their devices name them.
    public var user: String
    /// What they may do.
    public var role: SyncRole

    /// A member.
    public init(user: String, role: SyncRole) {
        self.user = user
        self.role = role
    }

    /// `user role`, one member per line in `boutique members`.
    public var description: String { "\(user) \(role.rawValue)" }
}
