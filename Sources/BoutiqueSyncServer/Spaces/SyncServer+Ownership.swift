import Foundation

/// A shared space's members as the server's operator sees and repairs them: by table and key as the
/// operator types them, checked against the rows the tenant holds, without any user's token.
extension SyncServer {
    /// Makes `user` the owner of the space of root row `key` of `table` in `tenant`, as trusted server
    /// code: for a space that has no owner (its root row was inserted by trusted code, or before the
    /// rules made its table a root) or whose owner must change. A space has one owner: one it had
    /// before stays a member, as an editor. Returns the members after, owner first.
    ///
    /// ```swift
    /// let members = try await server.makeOwner("ana", table: "remindersList", key: .text(listID), tenant: "acme")
    /// ```
    ///
    /// `key` is matched as the store holds it: a UUID in upper or lower case, or as its 16 bytes.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)``, and nothing is changed, when the
    ///   store has no such tenant, the tenant no row `key` of `table` (a deleted row included; the
    ///   message says whether its devices sync `table` at all), the row lives in another row's space
    ///   or a private one (only a root row's space has members), or `user` is not a name a token may
    ///   carry.
    @discardableResult
    public func makeOwner(_ user: String, table: String, key: DatabaseValue, tenant: String) async throws -> [SyncMember] {
        if let problem = SyncName.problem(in: user, label: "user") { throw BoutiqueError.invalidArgument(problem) }
        try await checkTenant(tenant)
        let members = try await store.transaction(tenant: tenant) { store in
            let space = try Self.rootSpace(table: table, key: key, tenant: tenant, in: store)
            let members = try store.members(of: space)
            if members.contains(where: { SyncName.same($0.user, user) && $0.role == .owner }) {
                return try Self.connected(Self.ordered(members), in: store)
            }
            for other in members where other.role == .owner {
                try store.setMember(other.user, role: .editor, in: space, sequence: 0)
            }
            // Joining moves the space in on the user's devices, at this point of the sequence; a new
            // role for a member changes what they may do only.
            let joining = !members.contains { SyncName.same($0.user, user) }
            let stored = members.first { SyncName.same($0.user, user) }?.user ?? user
            try store.setMember(stored, role: .owner, in: space, sequence: joining ? try store.reserveSequence() : 0)
            return try Self.connected(Self.ordered(try store.members(of: space)), in: store)
        }
        didCommit(tenant: tenant)
        return members
    }

    /// The members of the space of root row `key` of `table` in `tenant`, with their roles, owner
    /// first: what ``membership(_:action:tenant:user:)`` answers a member, for the server's operator.
    ///
    /// ```swift
    /// for member in try await server.members(table: "remindersList", key: .text(listID), tenant: "acme") { print(member) }
    /// ```
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` as ``makeOwner(_:table:key:tenant:)`` does.
    public func members(table: String, key: DatabaseValue, tenant: String) async throws -> [SyncMember] {
        try await checkTenant(tenant)
        return try await store.read(tenant: tenant) { store in
            try Self.connected(Self.ordered(try store.members(of: try Self.rootSpace(table: table, key: key, tenant: tenant, in: store))), in: store)
        }
    }

    /// Refuses a tenant the store does not hold: a misspelt one would otherwise be a new, empty tenant.
    private func checkTenant(_ tenant: String) async throws {
        let tenants = try await store.tenants()
        guard tenants.contains(where: { SyncName.same($0, tenant) }) else {
            let known = tenants.isEmpty ? "none" : tenants.sorted().prefix(20).map { "'\($0)'" }.joined(separator: ", ")
            throw BoutiqueError.invalidArgument("the store has no tenant '\(tenant)' (its tenants: \(known))")
        }
    }

    /// The space of root row `key` of `table`, the key in the form the store holds it.
    private static func rootSpace(table: String, key: DatabaseValue, tenant: String, in store: any SyncStoreTransaction) throws -> SyncSpace {
        let table = table.lowercased()
        let held = try RootKeyForms.candidates(for: key).first { candidate in
            try store.rowState(table: table, key: candidate)?.isVisible == true
        }
        guard let held else {
            let described = try store.tableShapes().map(\.table).sorted()
            guard described.contains(table) else {
                let tables = described.isEmpty ? "none described yet" : described.prefix(40).joined(separator: ", ")
                throw BoutiqueError.invalidArgument("tenant '\(tenant)' has no synced table '\(table)' (its devices sync: \(tables))")
            }
            throw BoutiqueError.invalidArgument("table '\(table)' of tenant '\(tenant)' has no row with key \(key)")
        }
        let space = SyncSpace.shared(table: table, key: held)
        // A root row lives in its own space, or in the common space when it was inserted before the
        // rules made its table a root (its next write moves it in).
        if let placed = try store.placement(table: table, key: held)?.space, placed != space, !placed.isCommon {
            throw BoutiqueError.invalidArgument(
                "row \(held) of '\(table)' lives in \(placed), not a space of its own: only a root row's space has members")
        }
        return space
    }
}
