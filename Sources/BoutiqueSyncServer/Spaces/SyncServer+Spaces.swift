/// Sharing on a server with rules: members of shared spaces, changed by their owner (or trusted
/// server code) in the tenant's sequence, and the rules checked against the devices' tables.
extension SyncServer {
    /// Shares, unshares or lists the space of a root row, as `user` (from their token).
    ///
    /// Only the space's owner shares and unshares, with ``/BoutiqueSync/SyncRole/viewer`` or ``/BoutiqueSync/SyncRole/editor``
    /// (nobody is made owner, and the owner is not removed); any member lists the members. Anything
    /// else is answered with a refusal that changes nothing. A UUID key matches in either case, and
    /// as the 16 bytes of a blob key.
    public func membership(_ request: MembershipRequest, action: MembershipAction, tenant: String, user: String) async throws
        -> MembershipResponse
    {
        let wall = wallClock()
        let rules = self.rules
        let response = try await store.transaction(tenant: tenant) { store in
            let time = try Self.tick(store, wall: wall)
            func refuse(_ reason: SyncRefusal.Reason, _ message: String) -> MembershipResponse {
                MembershipResponse(members: [], reason: message, refusal: reason, serverTime: time)
            }
            guard request.protocolVersion == SyncProtocol.version else {
                return refuse(.protocolMismatch, "protocol version \(request.protocolVersion) is not \(SyncProtocol.version)")
            }
            guard let rules, rules.placement(of: request.table) == .root else {
                return refuse(.invalid, "'\(request.table.prefix(100))' is not a root table of this server's sync rules: its rows are not shared")
            }
            // The root's key as its space holds it: a UUID typed in upper case (as `uuidString` writes
            // it) names the space of the lowercase key a device stored. Only the user's own
            // memberships are searched, so this tells nobody whether another form exists.
            let memberships = try store.memberships(of: user, at: nil)
            let key = RootKeyForms.candidates(for: request.key).first { memberships[.shared(table: request.table, key: $0)] != nil }
            let space = SyncSpace.shared(table: request.table, key: key ?? request.key)
            guard let key, let role = memberships[space] else {
                // Said the same way whether the row exists or not: a user learns nothing of others' spaces.
                return refuse(.forbidden, "user '\(user)' is not a member of \(space)")
            }
            switch action {
            case .members:
                break
            case .share, .unshare:
                guard role == .owner else {
                    return refuse(.forbidden, "user '\(user)' is \(role == .editor ? "an editor" : "a viewer") of \(space); only its owner shares and unshares it")
                }
                guard let target = request.user else { return refuse(.invalid, "name the user to \(action.rawValue) with") }
                guard !SyncName.same(target, user) else { return refuse(.invalid, "the owner of \(space) cannot change their own role") }
                let members = try store.members(of: space)
                // The names tokens may carry, so that a member is a user some token can name, spelled one
                // way. A member shared with under another spelling before names had one can still be
                // removed, by the exact bytes it was stored with.
                let removingStored = action == .unshare && members.contains { SyncName.same($0.user, target) }
                if !removingStored, let problem = SyncName.problem(in: target, label: "user") { return refuse(.invalid, problem) }
                if action == .share {
                    guard let newRole = request.role, newRole != .owner else {
                        return refuse(.invalid, "share with the role viewer or editor")
                    }
                    guard let root = try store.rowState(table: request.table, key: key), root.isVisible else {
                        return refuse(.invalid, "\(space) no longer exists")
                    }
                    let current = members.first { SyncName.same($0.user, target) }?.role
                    if current != newRole {
                        // Joining moves the space in on the user's devices, at this point of the
                        // sequence; a new role for a member changes what they may write only.
                        let sequence = current == nil ? try store.reserveSequence() : 0
                        try store.setMember(target, role: newRole, in: space, sequence: sequence)
                    }
                } else if members.contains(where: { SyncName.same($0.user, target) }) {
                    try store.setMember(target, role: nil, in: space, sequence: try store.reserveSequence())
                }
            }
            try store.noteConnected(user)
            return MembershipResponse(members: try Self.connected(Self.ordered(try store.members(of: space)), in: store), serverTime: time)
        }
        if action != .members, response.reason == nil { didCommit(tenant: tenant) }
        return response
    }

    /// Gives `user` `role` in the space of root row `key` of `table`, or removes them (`role` `nil`),
    /// as trusted server code: an owner included (a space whose root was created before the rules, or
    /// whose owner left).
    ///
    /// ```swift
    /// try await server.setMember("ana", role: .owner, table: "remindersList", key: .text(listID), tenant: "acme")
    /// ```
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when `user` is not a name a token may
    ///   carry (1 to 256 bytes in Unicode NFC, no control characters; see ``SyncTokenSigner``), unless it
    ///   removes a member stored under that name before names had one spelling.
    public func setMember(_ user: String, role: SyncRole?, table: String, key: DatabaseValue, tenant: String) async throws {
        let space = SyncSpace.shared(table: table.lowercased(), key: key)
        try await store.transaction(tenant: tenant) { store in
            let current = try store.members(of: space).first { SyncName.same($0.user, user) }?.role
            // A member stored under another spelling before names had one can still be removed.
            if role != nil || current == nil, let problem = SyncName.problem(in: user, label: "user") {
                throw BoutiqueError.invalidArgument(problem)
            }
            guard current != role else { return }
            try store.setMember(user, role: role, in: space, sequence: current == nil || role == nil ? try store.reserveSequence() : 0)
        }
        didCommit(tenant: tenant)
    }

    /// Checks the rules against the tables each tenant's devices described, as a server should when it
    /// starts, and returns what does not match, by tenant (``/BoutiqueSync/SyncRules/mismatches(with:)``):
    /// a follower's column a tenant's devices do not have, followers that form a cycle in its schema,
    /// or a table no device describes beside one no rule names.
    ///
    /// ```swift
    /// for (tenant, problem) in try await server.checkRules() { print("tenant \(tenant): \(problem)") }
    /// ```
    ///
    /// Shapes are what a tenant's devices sent, so a mismatch is that tenant's, and the server serves
    /// every other one as before: the check reports, it does not stop the server (`boutique serve`
    /// prints each problem when it starts). The server places no pushed row of a tenant whose tables
    /// the rules do not match: such a push is refused whole (``/BoutiqueSync/SyncRefusal/Reason/rulesMismatch``),
    /// its changes stay pending on the device, and the tenant's pulls go on, until the rules match.
    ///
    /// - Throws: the store's errors.
    @discardableResult
    public func checkRules() async throws -> [String: String] {
        guard let rules else { return [:] }
        var problems: [String: String] = [:]
        for tenant in (try? await store.tenants()) ?? [] {
            let shapes = try await store.read(tenant: tenant) { store in try store.tableShapes() }
            do {
                try rules.check(against: shapes)
            } catch let error as BoutiqueError {
                if case .invalidArgument(let reason) = error { problems[tenant] = reason } else { throw error }
            }
        }
        return problems
    }

    /// Why a push of `tenant` is not placed while the rules do not match its devices' tables: the
    /// push refusal's reason (``/BoutiqueSync/SyncRefusal/Reason/rulesMismatch``), for the server's log.
    static func rulesMismatch(_ mismatches: [String], tenant: String) -> String {
        "the sync rules do not match the tables of tenant '\(tenant)': " + mismatches.joined(separator: "; ")
            + "; none of its pushed rows is placed until they do (nothing of this push was applied: the device sends it again later)"
    }

    /// Owner first, then by user.
    static func ordered(_ members: [SyncMember]) -> [SyncMember] {
        members.sorted { ($0.role == .owner ? 0 : 1, $0.user) < ($1.role == .owner ? 0 : 1, $1.user) }
    }

    /// `members`, each saying whether a device or tool of theirs reached the server
    /// (``/BoutiqueSync/SyncMember/hasConnected``).
    static func connected(_ members: [SyncMember], in store: any SyncStoreTransaction) throws -> [SyncMember] {
        try members.map { member in
            var member = member
            member.hasConnected = try store.hasConnected(member.user)
            return member
        }
    }

    /// Records the shapes of a push that differ from the store's. Returns the store's shapes after
    /// it when it read them (a push that described tables, or `readingAnyway`), `nil` otherwise.
    ///
    /// - Throws: ``TooManyShapes`` when the tenant's shapes would pass ``/BoutiqueSync/SyncRules/maximumTables``;
    ///   ``CollaborativeTextMismatch`` when a shape names other collaborative text columns than the store's.
    static func record(
        _ pushed: [SyncTableShape]?, readingAnyway: Bool, in store: any SyncStoreTransaction
    ) throws -> [String: SyncTableShape]? {
        guard pushed != nil || readingAnyway else { return nil }
        var current = Dictionary(try store.tableShapes().map { ($0.table, $0) }, uniquingKeysWith: { first, _ in first })
        // Attachment columns add up: a device that describes none (an app version before them, the
        // tool on a table with no attachment yet) does not make the server forget which rows' values
        // let their readers read attachments.
        let changed = (pushed ?? []).map { shape in
            var shape = shape
            let columns = Set(shape.attachments ?? []).union(current[shape.table]?.attachments ?? [])
            shape.attachments = columns.isEmpty ? nil : columns.sorted()
            return shape
        }.filter { current[$0.table] != $0 }
        for shape in changed {
            if let mismatch = CollaborativeTextMismatch.check(shape, against: current[shape.table]) { throw mismatch }
        }
        let added = Set(changed.map(\.table)).subtracting(current.keys).count
        guard current.count + added <= SyncRules.maximumTables else {
            throw TooManyShapes(
                reason: "the push describes \(added) new tables; a tenant's devices may describe at most \(SyncRules.maximumTables)")
        }
        if !changed.isEmpty {
            try store.setTableShapes(changed)
            for shape in changed { current[shape.table] = shape }
        }
        return current
    }
}

/// Thrown when a push would make its tenant's table shapes more than ``/BoutiqueSync/SyncRules/maximumTables``:
/// the push is refused (``/BoutiqueSync/SyncRefusal/Reason/invalid``) and nothing of it stored.
struct TooManyShapes: Error {
    let reason: String
}
