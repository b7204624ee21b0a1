import BoutiqueSQLite

extension QueryStatement {
    /// The statement's rows as a ``QueryCursor``, read one at a time with `next()`.
    ///
    /// ```swift
    /// let cursor = try Reminder.all.fetchCursor(connection)
    /// while let reminder = try cursor.next() { … }
    /// ```
    public func fetchCursor(_ connection: Connection) throws -> QueryCursor<Row> {
        try QueryCursor(self, on: connection)
    }

    /// Calls `body` with each row as SQLite produces it, without gathering them: memory stays constant
    /// however many rows the statement returns.
    ///
    /// ```swift
    /// try await db.read { conn in
    ///     try Reminder.all.order { $0.id }.forEach(conn) { reminder in exporter.write(reminder) }
    /// }
    /// ```
    ///
    /// Stop early by throwing from `body`. A cancelled task stops at the next row with
    /// ``BoutiqueError/cancelled``. The statement is prepared for this iteration alone, so `body` may run
    /// other statements on the same connection (even this one) while it iterates.
    public func forEach(_ connection: Connection, _ body: (Row) throws -> Void) throws {
        let cursor = try QueryCursor(self, on: connection)
        defer { cursor.close() }
        try cursor.forEach(body)
    }
}
