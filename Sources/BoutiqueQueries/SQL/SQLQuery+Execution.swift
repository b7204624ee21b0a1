import BoutiqueSQLite

extension SQLQuery {
    /// Runs the statement, discarding any rows.
    ///
    /// ```swift
    /// try #sql("UPDATE \(Note.self) SET \(raw: "title") = \(title) WHERE id = \(id)").execute(connection)
    /// ```
    ///
    /// Without bindings the text may hold several statements separated by semicolons (a migration script);
    /// with bindings it must be one statement.
    public func execute(_ connection: Connection) throws {
        if queryFragment.bindings.isEmpty {
            do {
                try connection.execute(queryFragment.sql)
            } catch {
                throw BoutiqueError(error)
            }
            return
        }
        try withStatement(connection) { statement throws(BoutiqueError) in
            do throws(SQLiteError) {
                try statement.run()
            } catch {
                throw BoutiqueError(error)
            }
        }
    }

    /// Prepares the statement (from the connection's cache), binds the values, runs `body`, and resets
    /// the statement, so that it holds neither the bound values nor an open read.
    func withStatement<Result>(
        _ connection: Connection, _ body: (Statement) throws(BoutiqueError) -> Result
    ) throws(BoutiqueError) -> Result {
        let statement: Statement
        do {
            statement = try connection.cachedStatement(queryFragment.sql)
        } catch {
            throw BoutiqueError(error)
        }
        defer {
            try? statement.reset()
            try? statement.clearBindings()
        }
        // A stray `?` in raw text would otherwise be bound to NULL without a word.
        guard statement.parameterCount == Int32(clamping: queryFragment.bindings.count) else {
            throw BoutiqueError.invalidArgument(
                "the SQL has \(statement.parameterCount) parameters but \(queryFragment.bindings.count) values are bound: \(queryFragment.sql)")
        }
        do {
            try statement.bind(queryFragment.bindings)
        } catch {
            throw BoutiqueError(error)
        }
        return try body(statement)
    }

    /// Steps `statement` to its next row; false at its end.
    static func step(_ statement: Statement) throws(BoutiqueError) -> Bool {
        do throws(SQLiteError) {
            return try statement.step()
        } catch {
            throw BoutiqueError(error)
        }
    }
}

extension SQLQuery where Output: QueryRepresentable {
    /// Every row, each decoded with `Output` from the first column on.
    ///
    /// ```swift
    /// let titles = try #sql("SELECT title FROM note ORDER BY title", as: String.self).fetchAll(connection)
    /// let notes = try #sql("SELECT \(Note.columns) FROM \(Note.self)", as: Note.self).fetchAll(connection)
    /// ```
    public func fetchAll(_ connection: Connection) throws -> [Output.QueryOutput] {
        try withStatement(connection) { statement throws(BoutiqueError) in
            var rows: [Output.QueryOutput] = []
            while try Self.step(statement) {
                var decoder = RowDecoder(statement: statement, source: queryFragment.sql)
                rows.append(try Output.decode(from: &decoder))
            }
            return rows
        }
    }

    /// The first row, or `nil` when there is none.
    public func fetchOne(_ connection: Connection) throws -> Output.QueryOutput? {
        try withStatement(connection) { statement throws(BoutiqueError) in
            guard try Self.step(statement) else { return nil }
            var decoder = RowDecoder(statement: statement, source: queryFragment.sql)
            return try Output.decode(from: &decoder)
        }
    }
}
