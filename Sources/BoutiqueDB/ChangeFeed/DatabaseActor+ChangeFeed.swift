import BoutiqueSQLite

extension DatabaseActor {
    /// The token of the latest transaction committed to the file, by this process or another.
    ///
    /// ```swift
    /// let token = try await database.currentToken()
    /// ```
    public nonisolated(nonsending) func currentToken() async throws -> ChangeToken {
        do {
            return try await read { conn in
                do throws(SQLiteError) { return try ChangeLogReader.latestToken(on: conn.connection) } catch {
                    throw BoutiqueError(error)
                }
            }
        } catch {
            throw BoutiqueError.library(error, writing: false)
        }
    }

    /// The transactions committed after `token`, then each new one as it commits.
    ///
    /// ```swift
    /// for try await transaction in database.changes(since: .beginning) { print(transaction.changes) }
    /// ```
    public nonisolated func changes(since token: ChangeToken) -> ChangeFeed {
        ChangeFeed(database: self, start: token)
    }

    /// Removes the transactions committed at or before `token` from the change log.
    ///
    /// ```swift
    /// try await database.pruneChanges(upTo: uploadedToken)
    /// ```
    ///
    /// The latest transaction's COMMIT row stays as a marker, so tokens keep growing. Readers of
    /// ``changes(since:)`` from a pruned token get ``BoutiqueError/changesPruned(requested:oldestAvailable:)``
    /// instead of a gap.
    public nonisolated(nonsending) func pruneChanges(upTo token: ChangeToken) async throws {
        do {
            try await write { conn in
                do throws(SQLiteError) {
                    guard try ChangeLogSchema.logExists(conn.connection) else { return }
                    try ChangeLogPruning.prune(through: token.changeID, on: conn.connection)
                } catch {
                    throw BoutiqueError(error)
                }
            }
        } catch {
            throw BoutiqueError.library(error, writing: true)
        }
    }
}
