import CSQLite

/// The arguments of a SQL function call presented as the one row of a statement, so that they are
/// read with the column accessors a query's rows are read with.
///
/// SQLite hands a function its arguments as `sqlite3_value`s, which no statement accessor reads.
/// Bound with `sqlite3_bind_value` (which keeps each value's storage class and bytes) to
/// `SELECT ?1 AS "1", …` on a private in-memory connection and stepped once, they become a row that
/// every column reader decodes exactly as it decodes a table's row: the same conversions, the same
/// errors. The private connection is opened on the first call, with one statement per argument
/// count; it belongs to one connection and, like it, is used by one isolation domain at a time.
final class FunctionArgumentRows {
    private var scratch: Connection?
    /// The statement for each argument count (SQLite passes at most 127), by count: an array, because
    /// a dictionary's hashing showed in the per-call cost.
    private var statements: [Statement?] = []

    /// Runs `body` with a statement whose current row holds the `count` values.
    ///
    /// A call made while the cached statement for `count` is still in use (a function whose body ends
    /// up calling another one) gets a statement of its own.
    func withRow<Result>(
        count: Int32, values: UnsafeMutablePointer<OpaquePointer?>?, _ body: (Statement) throws -> Result
    ) throws -> Result {
        let statement = try statement(count: count)
        guard let handle = statement.handle else { throw SQLiteError.closed("statement", sql: statement.sql) }
        defer {
            // Drops the copies of the values (a large blob would otherwise stay until the next call).
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        for index in 0..<count {
            let rc = sqlite3_bind_value(handle, index + 1, values?[Int(index)])
            guard rc == SQLITE_OK else { throw statement.error(rc) }
        }
        guard try statement.step() else {
            throw SQLiteError(.internal, message: "the arguments' row is missing", sql: statement.sql)
        }
        return try body(statement)
    }

    private func statement(count: Int32) throws(SQLiteError) -> Statement {
        let index = Int(count)
        if index < statements.count, let cached = statements[index], let handle = cached.handle {
            if sqlite3_stmt_busy(handle) == 0 { return cached }
            return try connection().prepare(Self.sql(count: count))
        }
        let statement = try connection().prepare(Self.sql(count: count))
        if index >= statements.count { statements.append(contentsOf: repeatElement(nil, count: index + 1 - statements.count)) }
        statements[index] = statement
        return statement
    }

    /// `SELECT ?1 AS "1", ?2 AS "2", …`. A statement for zero arguments still needs a row; its one
    /// column is never read.
    private static func sql(count: Int32) -> String {
        "SELECT " + (count == 0 ? "NULL" : (1...count).map { "?\($0) AS \"\($0)\"" }.joined(separator: ", "))
    }

    /// Closes the private connection as its connection closes; a later call opens it again.
    func close() {
        statements.removeAll()
        scratch?.close()
        scratch = nil
    }

    private func connection() throws(SQLiteError) -> Connection {
        if let scratch { return scratch }
        let connection = try Connection.inMemory()
        scratch = connection
        return connection
    }
}
