import BoutiqueSQLite

extension DatabaseActor {
    /// Runs `body` in a write transaction and returns its result.
    ///
    /// ```swift
    /// let id = try await database.write { conn in
    ///     try conn.execute("INSERT INTO note(id, title, body, updatedAt) VALUES ('1', 'Hi', '', 0)")
    ///     return conn.lastInsertRowID
    /// }
    /// ```
    ///
    /// The transaction is `BEGIN IMMEDIATE`; it commits when `body` returns and rolls back when `body`
    /// throws or the task is cancelled (a running statement is interrupted). Writes run one at a time;
    /// reads go on meanwhile and do not see the write until it commits.
    ///
    /// - Throws: errors `body` throws, unchanged, except that SQLite errors become ``BoutiqueError``;
    ///   ``BoutiqueError/transactionInProgress`` when called from inside a write on this database or when
    ///   another connection holds the write lock past the busy timeout; ``BoutiqueError/cancelled``;
    ///   ``BoutiqueError/databaseClosed``.
    public nonisolated(nonsending) func write<T: Sendable>(_ body: @Sendable (DatabaseConnection) throws -> T) async throws -> T {
        try ActiveWrite.ensureOutside(of: ObjectIdentifier(self))
        return try await runWrite(inTransaction: true, origin: .local, body)
    }

    /// Runs `body` in a write transaction of `origin`: `.remote` for changes a sync engine applies from
    /// another replica, which are logged but neither stamped as local nor pushed back.
    ///
    /// ```swift
    /// try await database.write(origin: .remote) { conn in try applyPulledChanges(conn) }
    /// ```
    ///
    /// - Throws: as ``write(_:)``.
    public nonisolated(nonsending) func write<T: Sendable>(
        origin: TransactionOrigin, _ body: @Sendable (DatabaseConnection) throws -> T
    ) async throws -> T {
        try ActiveWrite.ensureOutside(of: ObjectIdentifier(self))
        return try await runWrite(inTransaction: true, origin: origin, body)
    }

    /// Runs `body` on the writer connection outside any transaction: for `VACUUM`, `PRAGMA`s that refuse
    /// to run in a transaction, or statements that manage their own.
    ///
    /// ```swift
    /// try await database.writeWithoutTransaction { conn in try conn.execute("VACUUM") }
    /// ```
    ///
    /// Each statement commits on its own. Leaving a transaction open is an error: it is rolled back.
    public nonisolated(nonsending) func writeWithoutTransaction<T: Sendable>(
        _ body: @Sendable (DatabaseConnection) throws -> T
    ) async throws -> T {
        try ActiveWrite.ensureOutside(of: ObjectIdentifier(self))
        return try await runWrite(inTransaction: false, origin: .local, body)
    }

    /// Runs a write on the actor, interrupting SQLite when the task is cancelled.
    private func runWrite<T: Sendable>(
        inTransaction: Bool, origin: TransactionOrigin, _ body: @Sendable (DatabaseConnection) throws -> T
    ) async throws -> T {
        let interrupter = try requireWriter().interrupter
        // The operation must capture `self`: only then is it isolated to this actor and runs on the
        // writer's queue (an operation that captures nothing isolated runs on the global executor).
        return try await withTaskCancellationHandler {
            try self.writeNow(inTransaction: inTransaction, origin: origin, body)
        } onCancel: {
            interrupter.interrupt()
        }
    }

    /// Runs the closure on the writer, marked as a write so that a nested write is refused.
    private func writeNow<T: Sendable>(
        inTransaction: Bool, origin: TransactionOrigin, _ body: @Sendable (DatabaseConnection) throws -> T
    ) throws -> T {
        try ActiveWrite.run(on: ObjectIdentifier(self)) {
            if inTransaction {
                try withWriteTransaction(origin: origin) { connection in try body(DatabaseConnection(connection, isReadOnly: false)) }
            } else {
                try withoutWriteTransaction { connection in try body(DatabaseConnection(connection, isReadOnly: false)) }
            }
        }
    }
}
