import BoutiqueDB
import Foundation

/// `boutique watch FILE "SELECT …"`: a live query on the command line.
enum WatchCommand: Command {
    static let name = "watch"
    static let summary = "print a query's rows, and again whenever any process changes them"
    static let help = """
        usage: boutique watch FILE "SELECT …" [--count N]

        Prints the rows of the query as a table, then prints them again each time a commit — from this
        or any other process — changes the result. Stops on Ctrl-C, or after N tables with --count.
        """

    static func run(_ arguments: inout ArgumentParser) async throws {
        let limit = try arguments.takeOption("--count").map { value -> Int in
            guard let count = Int(value), count > 0 else { throw UsageError("--count takes a positive number") }
            return count
        }
        let path = try arguments.takePositional("FILE")
        let sql = try arguments.takePositional("QUERY")
        try arguments.finish()
        let columns = try columnNames(of: sql, in: path)
        let db = try await DatabaseFile.openShared(path)
        var printed = 0
        for try await rows in db.observe(RawQuery(text: sql)) {
            if printed > 0 { Output.line("") }
            Output.line(TableRenderer.render(columns: columns, rows: rows))
            printed += 1
            if let limit, printed >= limit { break }
        }
        await db.close()
    }

    /// The query's column names, and a clear error for a query that does not compile or is not a SELECT.
    static func columnNames(of sql: String, in path: String) throws -> [String] {
        let connection = try DatabaseFile.openForReading(path)
        defer { connection.close() }
        let statement: Statement
        do {
            statement = try connection.prepare(sql)
        } catch {
            throw UsageError(problem(with: sql, error))
        }
        defer { statement.finalize() }
        guard statement.isReadOnly, statement.columnCount > 0 else {
            throw UsageError("watch takes a query that reads rows (a SELECT)")
        }
        return statement.columnNames
    }

    /// What is wrong with a query SQLite would not compile, said for someone typing it on the command line.
    static func problem(with sql: String, _ error: SQLiteError) -> String {
        if error.code == .misuse {
            let text = sql.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: ";")))
            if text.isEmpty { return "the query is empty: give one SELECT statement" }
            return "watch takes one query, but the text holds several statements: keep only the SELECT"
                + " (run the others first with `boutique sql`)"
        }
        return "the query does not compile: \(error.message)"
    }
}
