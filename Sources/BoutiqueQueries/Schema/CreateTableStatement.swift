import BoutiqueSQLite

/// A `CREATE TABLE` statement rendered from a table's column schemas.
///
/// ```swift
/// let statement = CreateTableStatement(Note.self, options: [.strict])
/// statement.sql   // CREATE TABLE "note" ("id" TEXT PRIMARY KEY NOT NULL, "title" TEXT NOT NULL, …) STRICT
/// try statement.execute(connection)
/// ```
///
/// Each column is declared with its SQL type, `PRIMARY KEY`, `NOT NULL` unless optional, its literal
/// `DEFAULT`, and `GENERATED ALWAYS AS (…) VIRTUAL|STORED` for generated columns. In a table that is not
/// `STRICT`, an `ANY` column is declared without a type: there `ANY` would mean numeric affinity.
///
/// A generated column declared without its expression (`@Column(generated: .stored)`) is computed as
/// the app's own SQL says, which the model does not know: the text then has an empty
/// `GENERATED ALWAYS AS ()`, to be filled in, and `execute` refuses to run it.
public struct CreateTableStatement: Hashable, Sendable {
    /// The statement's SQL text.
    public let sql: String
    /// The table's name.
    public let tableName: String
    /// The generated columns whose expression the model does not give, in order: while there is one,
    /// the statement cannot create the table.
    public let columnsWithoutExpression: [String]

    /// The statement for a table of `columns` named `tableName`.
    public init(tableName: String, columns: [ColumnSchema], options: TableOptions = [], ifNotExists: Bool = false) {
        let strict = options.contains(.strict)
        var sql = ifNotExists ? "CREATE TABLE IF NOT EXISTS " : "CREATE TABLE "
        sql += SQLIdentifier.quote(tableName) + " ("
        sql += columns.map { Self.definition(of: $0, strict: strict) }.joined(separator: ", ")
        sql += ")"
        var suffixes: [String] = []
        if strict { suffixes.append("STRICT") }
        if options.contains(.withoutRowID) { suffixes.append("WITHOUT ROWID") }
        if !suffixes.isEmpty { sql += " " + suffixes.joined(separator: ", ") }
        self.sql = sql
        self.tableName = tableName
        self.columnsWithoutExpression = columns.filter { $0.generated != nil && $0.generated?.expression == nil }.map(\.name)
    }

    /// The statement for `table`'s columns.
    public init<T: Table>(_ table: T.Type, options: TableOptions = [], ifNotExists: Bool = false) {
        self.init(tableName: T.tableName, columns: T.TableColumns.allColumns, options: options, ifNotExists: ifNotExists)
    }

    /// Runs the statement.
    ///
    /// - Throws: ``BoutiqueError/invalidArgument(_:)`` without running anything when a generated column
    ///   has no expression in the model (``columnsWithoutExpression``); SQLite's error otherwise.
    public func execute(_ connection: Connection) throws {
        if let column = columnsWithoutExpression.first {
            throw BoutiqueError.invalidArgument(
                "the model of table '\(tableName)' cannot create it: its generated column '\(column)' is computed as the app's SQL says (@Column(generated: .virtual) or .stored without an expression); create the table with that SQL in a migration, or give the expression in the model, @Column(generated: .stored(\"…\"))")
        }
        do {
            try connection.execute(sql)
        } catch {
            throw BoutiqueError(error)
        }
    }

    /// `"title" TEXT NOT NULL DEFAULT ''`.
    static func definition(of column: ColumnSchema, strict: Bool) -> String {
        var parts = [SQLIdentifier.quote(column.name)]
        if strict || column.sqlType != .any { parts.append(column.sqlType.rawValue) }
        if column.isPrimaryKey { parts.append("PRIMARY KEY") }
        // A generated column's value is whatever its expression gives: NOT NULL would turn a NULL result
        // into a failed write of some other column.
        if !column.isNullable, column.generated == nil { parts.append("NOT NULL") }
        if let value = column.defaultValue, column.generated == nil { parts.append("DEFAULT " + SQLLiteral.render(value)) }
        if let generated = column.generated {
            parts.append("GENERATED ALWAYS AS (\(generated.expression ?? "")) \(generated.storage.rawValue)")
        }
        return parts.joined(separator: " ")
    }
}
