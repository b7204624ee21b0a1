extension BoutiqueDB {
    /// The token of the latest transaction committed to the file, by this process or another.
    ///
    /// ```swift
    /// let token = try await db.currentToken
    /// for try await transaction in db.changes(since: token) { … }   // only what commits from now on
    /// ```
    public nonisolated var currentToken: ChangeToken {
        get async throws { try await databaseActor.currentToken() }
    }

    /// The transactions committed after `token`, then each new one as it commits. See ``ChangeFeed``.
    ///
    /// ```swift
    /// for try await transaction in db.changes(since: savedToken) {
    ///     for change in transaction.changes where change.table == "note" {
    ///         print(change.kind, try change.after(as: Note.self) as Any)
    ///     }
    ///     savedToken = transaction.token
    /// }
    /// ```
    public nonisolated func changes(since token: ChangeToken) -> ChangeFeed {
        databaseActor.changes(since: token)
    }

    /// Removes the transactions committed at or before `token` from the change log.
    ///
    /// ```swift
    /// try await db.pruneChanges(upTo: uploadedToken)
    /// ```
    public nonisolated(nonsending) func pruneChanges(upTo token: ChangeToken) async throws {
        try await databaseActor.pruneChanges(upTo: token)
    }
}
