/// What one user may do in the spaces a push touches: their memberships, read from the store once per
/// push, and the spaces they create in it.
struct SpaceRights {
    let store: any SyncStoreTransaction
    let user: String
    private var roles: [SyncSpace: SyncRole]?
    /// The latest space asked about, and the user's role there.
    private var last: (space: SyncSpace, role: SyncRole?)?

    init(store: any SyncStoreTransaction, user: String) {
        self.store = store
        self.user = user
    }

    /// The user's role in `space`: owner of their private space, editor of the common space (everyone
    /// writes there), their membership's role in a shared space, `nil` when they have none.
    mutating func role(in space: SyncSpace) throws -> SyncRole? {
        if space.isCommon { return .editor }
        // Bytes, as the store compares names: `==` would take another spelling of the name for the owner.
        if let owner = space.privateUser { return SyncName.same(owner, user) ? .owner : nil }
        if let last, last.space == space { return last.role }
        if roles == nil { roles = try store.memberships(of: user, at: nil) }
        let role = roles?[space]
        // A push's changes mostly follow each other in one space: comparing the name beats hashing it.
        last = (space, role)
        return role
    }

    /// Reads the user's memberships if no lookup has yet: a refusal reads them whether or not the
    /// row it is about needed them, so that how long it takes tells nothing of that row.
    mutating func loadMemberships() throws {
        if roles == nil { roles = try store.memberships(of: user, at: nil) }
    }

    /// The user's roles as a transaction left them, to put back if it is refused.
    var saved: [SyncSpace: SyncRole]? { roles }

    /// Puts back the roles a refused transaction changed.
    mutating func restore(_ saved: [SyncSpace: SyncRole]?) {
        roles = saved
        last = nil
    }

    /// Notes that the user created `space` (inserted its root row): they own it.
    mutating func created(_ space: SyncSpace) throws {
        if roles == nil { roles = try store.memberships(of: user, at: nil) }
        roles?[space] = .owner
        last = nil
    }
}
