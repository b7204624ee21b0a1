extension DatabaseActor {
    /// Runs `body` in a read transaction on a reader connection and returns its result.
    ///
    /// ```swift
    /// let titles = try await database.read { conn in
    ///     try conn.fetchAll("SELECT title FROM note ORDER BY updatedAt DESC").map { $0[0] }
    /// }
    /// ```
    ///
    /// The read sees one snapshot: everything committed before the call, nothing committed while it
    /// runs. Reads run concurrently with each other (up to ``DatabaseOptions/readerCount``) and with
    /// the write in progress; they never wait for the writer. Statements that would change the database
    /// fail with `.readOnly`.
    ///
    /// - Throws: errors `body` throws, unchanged, except that SQLite errors become ``BoutiqueError``;
    ///   ``BoutiqueError/cancelled``; ``BoutiqueError/databaseClosed``.
    public nonisolated(nonsending) func read<T: Sendable>(_ body: @Sendable (DatabaseConnection) throws -> T) async throws -> T {
        let reader = try await readers.acquire()
        return try await reader.read(body, thenReturnTo: readers)
    }
}
