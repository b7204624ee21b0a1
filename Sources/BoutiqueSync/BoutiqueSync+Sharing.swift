import BoutiqueQueries

/// Sharing a root row's space with other users, on a server with ``SyncRules``.
///
/// ```swift
/// try await sync.share(RemindersList.self, key: list.id, with: "bob", role: .editor)
/// let members = try await sync.members(of: RemindersList.self, key: list.id)   // [ana owner, bob editor]
/// try await sync.unshare(RemindersList.self, key: list.id, with: "bob")
/// ```
///
/// Only the space's owner (the user who created the root row) shares and unshares; sharing with a
/// member again changes their role. The member's devices receive the space on their next pull (the
/// list and everything that follows it); unsharing takes it off them. These calls go to the server
/// at once and change nothing locally. A refusal is thrown to the caller only: it is not posted to
/// ``BoutiqueSync/refusals`` or ``SyncStatus/lastRefusal``, which report what sync put back.
///
/// A UUID key matches the root row however it is spelled (`uuidString`'s upper case, or the lowercase
/// text BoutiqueDB stores), and a 16-byte blob key matches a UUID stored as text, and back.
extension BoutiqueSync {
    /// Shares the space of root row `key` of `table` with `user`, as a viewer or an editor.
    ///
    /// `user` is spelled as tokens spell users: 1 to 256 bytes in Unicode NFC without control
    /// characters (the server compares names as bytes). The server has no list of users, so a user no
    /// token has named yet is shared with all the same; the members returned say so
    /// (``SyncMember/hasConnected`` `false`), which is also how a mistyped id shows.
    ///
    /// ```swift
    /// let members = try await sync.share(RemindersList.self, key: list.id, with: "bob", role: .editor)
    /// let waiting = members.filter { $0.hasConnected == false }.map(\.user)   // not signed in anywhere yet
    /// ```
    ///
    /// - Throws: ``SyncRefusal`` with reason ``SyncRefusal/Reason/forbidden`` when this device's user is
    ///   not the owner, ``SyncRefusal/Reason/invalid`` for a table that is not a root, a role that
    ///   cannot be given or a user name no token may carry; ``/BoutiqueDB/BoutiqueError/syncUnavailable(reason:)``
    ///   when the server did not answer.
    @discardableResult
    public func share<T: Table, Key: QueryBindable>(_ table: T.Type, key: Key, with user: String, role: SyncRole) async throws
        -> [SyncMember]
    {
        try await share(T.tableName, key: Key.encode(key), with: user, role: role)
    }

    /// Shares the space of root row `key` of the table named `table` with `user`.
    @discardableResult
    public func share(_ table: String, key: DatabaseValue, with user: String, role: SyncRole) async throws -> [SyncMember] {
        try await membership(.share, table: table, key: key, user: user, role: role)
    }

    /// Removes `user` from the space of root row `key` of `table`; their devices delete its rows.
    @discardableResult
    public func unshare<T: Table, Key: QueryBindable>(_ table: T.Type, key: Key, with user: String) async throws -> [SyncMember] {
        try await unshare(T.tableName, key: Key.encode(key), with: user)
    }

    /// Removes `user` from the space of root row `key` of the table named `table`.
    @discardableResult
    public func unshare(_ table: String, key: DatabaseValue, with user: String) async throws -> [SyncMember] {
        try await membership(.unshare, table: table, key: key, user: user, role: nil)
    }

    /// The members of the space of root row `key` of `table`, owner first; any member may ask.
    public func members<T: Table, Key: QueryBindable>(of table: T.Type, key: Key) async throws -> [SyncMember] {
        try await members(of: T.tableName, key: Key.encode(key))
    }

    /// The members of the space of root row `key` of the table named `table`.
    public func members(of table: String, key: DatabaseValue) async throws -> [SyncMember] {
        try await membership(.members, table: table, key: key, user: nil, role: nil)
    }

    private func membership(_ action: MembershipAction, table: String, key: DatabaseValue, user: String?, role: SyncRole?) async throws
        -> [SyncMember]
    {
        do {
            return try await session.membership(action, table: table.lowercased(), key: key, user: user, role: role)
        } catch {
            throw BoutiqueSync.publicError(error)
        }
    }
}
