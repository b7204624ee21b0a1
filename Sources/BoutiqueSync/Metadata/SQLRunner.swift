/// Runs cached statements with bound values on the writer or a reader: the one way sync talks SQL.
struct SQLRunner {
    let connection: Connection

    init(_ connection: Connection) { self.connection = connection }
    init(_ connection: DatabaseConnection) { self.connection = connection.connection }

    /// Every row of `sql` with `arguments` bound.
    func rows(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> [[DatabaseValue]] {
        try connection.cachedRows(sql, arguments)
    }

    /// The first column of the first row.
    func value(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> DatabaseValue? {
        try rows(sql, arguments).first?.first
    }

    /// Runs a statement that returns no rows.
    func run(_ sql: String, _ arguments: [DatabaseValue] = []) throws {
        try connection.execute(sql, arguments)
    }
}

extension DatabaseValue {
    /// The integer, `nil` for anything else.
    var integerValue: Int64? { if case .integer(let value) = self { value } else { nil } }
    /// The text, `nil` for anything else.
    var textValue: String? { if case .text(let value) = self { value } else { nil } }
}
