import BoutiqueDB
import Foundation

/// `boutique sql FILE "STATEMENTS"`: runs SQL on a database file and prints the last statement's rows.
enum SQLCommand: Command {
    static let name = "sql"
    static let summary = "run SQL on a database file and print the rows as a table"
    static let help = """
        usage: boutique sql FILE "STATEMENT[; STATEMENT …]" [--create]

        Runs the statements in order on FILE and prints the rows of the last one as an aligned table.
        FILE must exist unless --create is given.
        """

    @MainActor
    static func run(_ arguments: inout ArgumentParser) async throws {
        let create = arguments.takeFlag("--create")
        let path = try arguments.takePositional("FILE")
        let sql = try arguments.takePositional("STATEMENT")
        try arguments.finish()
        if !create {
            // Creating a file by a typo in its name would hide the typo: a new file takes --create.
            guard FileManager.default.fileExists(atPath: path) else {
                throw UsageError("no such file: \(path) (add --create to make a new database there)")
            }
            _ = try DatabaseFile.openForReading(path).close()
        }

        // Reads run on a plain read-only connection and leave the file exactly as it was. Anything that
        // writes goes through BoutiqueDB, in one transaction, so the change log records it like any other
        // commit.
        let probe = try Connection(path: ":memory:")
        let statements = try SQLSplitter.split(sql, on: probe)
        guard !statements.isEmpty else { throw UsageError("no statement to run") }
        let result: (columns: [String], rows: [[DatabaseValue]], changes: Int)
        if !create, try statements.allSatisfy({ try isReadOnly($0, in: path) }) {
            let connection = try DatabaseFile.openForReading(path)
            defer { connection.close() }
            for statement in statements.dropLast() { try connection.execute(statement) }
            let fetched = try connection.fetchRows(statements[statements.count - 1])
            result = (fetched.columns, fetched.rows, 0)
        } else {
            let db = try await BoutiqueDB.open(url: URL(fileURLWithPath: path), options: .init(multiProcess: true))
            do {
                result = try await db.write { conn in
                    for statement in statements.dropLast() { try conn.connection.execute(statement) }
                    let fetched = try conn.connection.fetchRows(statements[statements.count - 1])
                    return (fetched.columns, fetched.rows, conn.connection.changes)
                }
            } catch {
                await db.close()
                throw error
            }
            await db.close()
        }
        if result.columns.isEmpty {
            Output.line("ok (\(result.changes) row\(result.changes == 1 ? "" : "s") changed)")
        } else {
            Output.line(TableRenderer.render(columns: result.columns, rows: result.rows))
        }
    }

    /// `true` when `statement` only reads (SQLite's own judgement, `sqlite3_stmt_readonly`).
    static func isReadOnly(_ statement: String, in path: String) throws -> Bool {
        let connection = try DatabaseFile.openForReading(path)
        defer { connection.close() }
        let prepared = try connection.prepare(statement)
        defer { prepared.finalize() }
        return prepared.isReadOnly
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
