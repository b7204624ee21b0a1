import BoutiqueSQLite

extension QueryStatement {
    /// Every row the statement returns.
    ///
    /// ```swift
    /// let notes = try Note.all.order { $0.updatedAt.desc() }.fetchAll(connection)
    /// ```
    @inlinable
    public func fetchAll(_ connection: Connection) throws -> [Row] {
        let statement = try Execution.prepare(query, on: connection)
        defer { Execution.finish(statement) }
        var rows: [Row] = []
        var decoder = RowDecoder(statement: statement, source: rowSource)
        while try Execution.step(statement) {
            decoder.columnIndex = 0
            rows.append(try decodeRow(&decoder))
        }
        return rows
    }

    /// The first row the statement returns, or `nil`.
    @inlinable
    public func fetchOne(_ connection: Connection) throws -> Row? {
        let statement = try Execution.prepare(query, on: connection)
        defer { Execution.finish(statement) }
        guard try Execution.step(statement) else { return nil }
        var decoder = RowDecoder(statement: statement, source: rowSource)
        return try decodeRow(&decoder)
    }

    /// Runs the statement, discarding any rows it returns.
    public func execute(_ connection: Connection) throws {
        let statement = try Execution.prepare(query, on: connection)
        defer { Execution.finish(statement) }
        while try Execution.step(statement) {}
    }
}

extension Select {
    /// The number of rows the select returns.
    public func fetchCount(_ connection: Connection) throws -> Int {
        try count().fetchOne(connection) ?? 0
    }
}

extension Insert {
    /// Writes every row, atomically.
    ///
    /// Each row runs through one cached single-row statement (inside a savepoint when there are several),
    /// which is faster than one long `VALUES` list and has no limit on the number of rows.
    @inlinable
    public func execute(_ connection: Connection) throws {
        guard !rows.isEmpty else { return }
        let statement = try Execution.prepare(QueryFragment(statementText(rowCount: 1)), on: connection)
        defer { Execution.finish(statement) }
        if !conflictBindings.isEmpty {
            // An upsert's own values follow each row's.
            let extra = conflictBindings
            try Execution.atomically(on: connection) { () throws(BoutiqueError) in
                for row in rows { try Execution.run(statement, values: row.values + extra) }
            }
            return
        }
        if rows.count == 1 {
            try Execution.run(statement, row: rows[0])
            return
        }
        try Execution.atomically(on: connection) { () throws(BoutiqueError) in
            for row in rows { try Execution.run(statement, row: row) }
        }
    }
}

/// The steps every statement runs through, with SQLite's errors turned into ``BoutiqueError``.
public enum Execution {
    /// A cached prepared statement for `fragment`, with its values bound.
    @inlinable
    public static func prepare(_ fragment: QueryFragment, on connection: Connection) throws(BoutiqueError)
        -> BoutiqueSQLite.Statement
    {
        do {
            let statement = try connection.cachedStatement(fragment.sql)
            for (offset, value) in fragment.bindings.enumerated() {
                try statement.bind(value, at: Int32(offset + 1))
            }
            return statement
        } catch {
            throw BoutiqueError(error)
        }
    }

    /// Steps once: `true` when a row is ready.
    @inlinable
    public static func step(_ statement: BoutiqueSQLite.Statement) throws(BoutiqueError) -> Bool {
        do {
            return try statement.step()
        } catch {
            throw BoutiqueError(error)
        }
    }

    /// Resets a statement that is done with, so it holds no read lock while it waits in the cache.
    @inlinable
    public static func finish(_ statement: BoutiqueSQLite.Statement) {
        try? statement.reset()
    }

    /// Binds `values` to parameters 1… and runs the statement to completion.
    @inlinable
    public static func run(_ statement: BoutiqueSQLite.Statement, values: [DatabaseValue]) throws(BoutiqueError) {
        do {
            var index: Int32 = 1
            for value in values {
                try statement.bind(value, at: index)
                index += 1
            }
            try statement.run()
        } catch {
            throw BoutiqueError(error)
        }
    }

    /// Binds `row` and runs the statement to completion.
    @inlinable
    public static func run<Root: Table>(_ statement: BoutiqueSQLite.Statement, row: InsertRow<Root>) throws(BoutiqueError) {
        do {
            try row.bind(to: statement)
            try statement.run()
        } catch {
            throw BoutiqueError(error)
        }
    }

    /// Runs `body` inside a savepoint, so that its statements all take effect or none does.
    public static func atomically(
        on connection: Connection, _ body: () throws(BoutiqueError) -> Void
    ) throws(BoutiqueError) {
        do {
            try connection.execute("SAVEPOINT boutique_statement")
        } catch {
            throw BoutiqueError(error)
        }
        do {
            try body()
        } catch {
            try? connection.execute("ROLLBACK TO SAVEPOINT boutique_statement")
            try? connection.execute("RELEASE SAVEPOINT boutique_statement")
            throw error
        }
        do {
            try connection.execute("RELEASE SAVEPOINT boutique_statement")
        } catch {
            throw BoutiqueError(error)
        }
    }
}
