import BoutiqueSQLite

extension QueryStatement {
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
        let statement: BoutiqueSQLite.Statement
        do {
            statement = try connection.prepare(query.sql)
        } catch {
            throw BoutiqueError(error)
        }
        defer { statement.finalize() }
        do {
            for (offset, value) in query.bindings.enumerated() {
                try statement.bind(value, at: Int32(offset + 1))
            }
        } catch {
            throw BoutiqueError(error)
        }
        var decoder = RowDecoder(statement: statement, source: rowSource)
        while try Self.stepUnlessCancelled(statement) {
            decoder.columnIndex = 0
            try body(try decodeRow(&decoder))
        }
    }

    /// Steps once, unless the task was cancelled: a cancelled read interrupts its statement, and the
    /// interruption is reported as what it is, a cancellation.
    private static func stepUnlessCancelled(_ statement: BoutiqueSQLite.Statement) throws(BoutiqueError) -> Bool {
        if Task.isCancelled { throw .cancelled }
        do {
            return try Execution.step(statement)
        } catch {
            if Task.isCancelled { throw .cancelled }
            throw error
        }
    }
}
