import BoutiqueDB

/// `boutique sql FILE "STATEMENTS"`: runs SQL on a database file and prints the last statement's rows.
enum SQLCommand: Command {
    static let name = "sql"
    static let summary = "run SQL on a database file and print the rows as a table"
    static let help = """
        usage: boutique sql FILE "STATEMENT[; STATEMENT …]" [--create]

        Runs the statements in order on FILE and prints the rows of the last one as an aligned table.
        FILE must exist unless --create is given.
        """

    static func run(_ arguments: inout ArgumentParser) throws {
        let create = arguments.takeFlag("--create")
        let path = try arguments.takePositional("FILE")
        let sql = try arguments.takePositional("STATEMENT")
        try arguments.finish()
        let connection = try Connection(path: path, flags: create ? .default : [.readWrite, .noMutex])
        defer { connection.close() }
        let statements = try SQLSplitter.split(sql, on: connection)
        guard let last = statements.last else { throw UsageError("no statement to run") }
        for statement in statements.dropLast() { try connection.execute(statement) }
        let result = try connection.fetchRows(last)
        if result.columns.isEmpty {
            Output.line("ok (\(connection.changes) row\(connection.changes == 1 ? "" : "s") changed)")
        } else {
            Output.line(TableRenderer.render(columns: result.columns, rows: result.rows))
        }
    }
}

/// Splits SQL text into complete statements with SQLite's own `sqlite3_complete` rules.
enum SQLSplitter {
    static func split(_ sql: String, on connection: Connection) throws -> [String] {
        var statements: [String] = []
        var current = ""
        for character in sql {
            current.append(character)
            if character == ";", SQLText.isComplete(current) {
                let trimmed = current.trimmedStatement
                if !trimmed.isEmpty { statements.append(trimmed) }
                current = ""
            }
        }
        let rest = current.trimmedStatement
        if !rest.isEmpty { statements.append(rest) }
        return statements
    }
}

extension String {
    var trimmedStatement: String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace || first == ";" { text.removeFirst() }
        while let last = text.last, last.isWhitespace || last == ";" { text.removeLast() }
        return String(text)
    }
}
