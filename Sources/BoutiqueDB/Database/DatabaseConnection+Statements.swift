import BoutiqueQueries

// Statements run on the connection a `read`, `write` or migration closure receives, as they run on its
// `connection`: `Note.all.fetchAll(conn)` and `Note.all.fetchAll(conn.connection)` are the same call.

extension QueryStatement {
    /// Every row the statement returns: `try Note.all.fetchAll(conn)`.
    @inlinable
    public func fetchAll(_ conn: DatabaseConnection) throws -> [Row] { try fetchAll(conn.connection) }

    /// The first row the statement returns, or `nil`.
    @inlinable
    public func fetchOne(_ conn: DatabaseConnection) throws -> Row? { try fetchOne(conn.connection) }

    /// Runs the statement, discarding any rows it returns.
    public func execute(_ conn: DatabaseConnection) throws { try execute(conn.connection) }

    /// The rows as a cursor, read one at a time: `while let row = try cursor.next() { … }`.
    public func fetchCursor(_ conn: DatabaseConnection) throws -> QueryCursor<Row> {
        try fetchCursor(conn.connection)
    }

    /// Calls `body` with each row, in constant memory, as `forEach` on its `connection` does.
    public func forEach(_ conn: DatabaseConnection, _ body: (Row) throws -> Void) throws {
        try forEach(conn.connection, body)
    }
}

extension Select {
    /// The number of rows the select returns.
    public func fetchCount(_ conn: DatabaseConnection) throws -> Int { try fetchCount(conn.connection) }
}

extension Insert {
    /// Writes every row, atomically.
    @inlinable
    public func execute(_ conn: DatabaseConnection) throws { try execute(conn.connection) }
}

extension SQLQuery {
    /// Runs the statement, discarding any rows.
    public func execute(_ conn: DatabaseConnection) throws { try execute(conn.connection) }
}

extension SQLQuery where Output: QueryRepresentable {
    /// Every row, each decoded with `Output`.
    public func fetchAll(_ conn: DatabaseConnection) throws -> [Output.QueryOutput] { try fetchAll(conn.connection) }

    /// The first row, or `nil`.
    public func fetchOne(_ conn: DatabaseConnection) throws -> Output.QueryOutput? { try fetchOne(conn.connection) }
}

extension CreateTableStatement {
    /// Creates the table.
    public func execute(_ conn: DatabaseConnection) throws { try execute(conn.connection) }
}
