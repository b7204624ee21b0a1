import BoutiqueSQLite

extension DatabaseConnection {
    /// Every row of a query, as values with their column names.
    ///
    /// ```swift
    /// let rows = try conn.fetchAll("SELECT id, title FROM note WHERE updatedAt > ?", [.real(cutoff)])
    /// let titles = rows.map { $0["title"] }
    /// ```
    public func fetchAll(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> [DatabaseRow] {
        do {
            let result = try connection.fetchRows(sql, arguments)
            return result.rows.map { DatabaseRow(columns: result.columns, values: $0) }
        } catch {
            throw BoutiqueError(error)
        }
    }

    /// The first row of a query, or `nil` when it returns none.
    ///
    /// ```swift
    /// let note = try conn.fetchOne("SELECT * FROM note WHERE id = ?", [.text(id)])
    /// ```
    public func fetchOne(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> DatabaseRow? {
        do {
            let statement = try connection.prepare(sql)
            defer { statement.finalize() }
            try statement.bind(arguments)
            guard try statement.step() else { return nil }
            return DatabaseRow(columns: statement.columnNames, values: try statement.row())
        } catch {
            throw BoutiqueError(error)
        }
    }

    /// The first column of the first row, or `nil` when the query returns no row.
    ///
    /// ```swift
    /// let count = try conn.fetchValue("SELECT count(*) FROM note")   // .integer(3)
    /// ```
    public func fetchValue(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> DatabaseValue? {
        do { return try connection.fetchValue(sql, arguments) } catch { throw BoutiqueError(error) }
    }
}
