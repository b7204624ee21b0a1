/// Runs cached statements with bound values on the writer or a reader: the one way sync talks SQL.
struct SQLRunner {
    let connection: Connection

    init(_ connection: Connection) { self.connection = connection }
    init(_ connection: DatabaseConnection) { self.connection = connection.connection }

    /// Every row of `sql` with `arguments` bound.
    func rows(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> [[DatabaseValue]] {
        let statement = try connection.cachedStatement(sql)
        defer { try? statement.reset() }
        try statement.clearBindings()
        for (index, value) in arguments.enumerated() { try statement.bind(value, at: Int32(index + 1)) }
        var rows: [[DatabaseValue]] = []
        while try statement.step() { rows.append(try statement.row()) }
        return rows
    }

    /// The first column of the first row.
    func value(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> DatabaseValue? {
        try rows(sql, arguments).first?.first
    }

    /// Runs a statement that returns no rows.
    func run(_ sql: String, _ arguments: [DatabaseValue] = []) throws {
        let statement = try connection.cachedStatement(sql)
        defer { try? statement.reset() }
        try statement.clearBindings()
        for (index, value) in arguments.enumerated() { try statement.bind(value, at: Int32(index + 1)) }
        try statement.run()
    }
}

extension DatabaseValue {
    /// The integer, `nil` for anything else.
    var integerValue: Int64? { if case .integer(let value) = self { value } else { nil } }
    /// The text, `nil` for anything else.
    var textValue: String? { if case .text(let value) = self { value } else { nil } }
}
