import BoutiqueDB

/// `boutique check FILE`: a health report.
enum CheckCommand: Command {
    static let name = "check"
    static let summary = "check a database file: integrity, journal mode, change log, tables"
    static let help = """
        usage: boutique check FILE

        Runs SQLite's integrity check and prints the journal mode, the change log's version and size,
        and each table with its row count. Reads only. Exits with 1 when the integrity check fails.
        """

    struct IntegrityFailure: Error, CustomStringConvertible {
        let messages: [String]
        var description: String { "integrity check failed:\n" + messages.joined(separator: "\n") }
    }

    static func run(_ arguments: inout ArgumentParser) async throws {
        let path = try arguments.takePositional("FILE")
        try arguments.finish()
        let connection = try DatabaseFile.openForReading(path)
        defer { connection.close() }

        let integrity = try connection.integrityCheck()
        let journal = try connection.journalMode()
        Output.line("file:          \(path)")
        Output.line("integrity:     \(integrity == ["ok"] ? "ok" : "FAILED")")
        Output.line("journal mode:  \(journal.rawValue)")

        let tables = try connection.fetchRows(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        ).rows.compactMap { row -> String? in
            if case .text(let name)? = row.first { return name }
            return nil
        }
        if tables.contains("turso_cdc_version") {
            let version = try connection.fetchValue("SELECT version FROM turso_cdc_version WHERE table_name = 'turso_cdc'")
            let rows = try connection.fetchValue("SELECT count(*) FROM turso_cdc")
            let commits = try connection.fetchValue("SELECT count(*) FROM turso_cdc WHERE change_type = 2")
            Output.line("change log:    turso_cdc \(version?.description ?? "?"), \(Plural.count(rows, "row")), \(Plural.count(commits, "transaction"))")
        } else {
            Output.line("change log:    none")
        }
        var rows: [[DatabaseValue]] = []
        for table in tables {
            let count = try connection.fetchValue("SELECT count(*) FROM \(SQLIdentifier.quote(table))") ?? .null
            let columns = try connection.fetchRows("SELECT count(*) FROM pragma_table_info(?)", [.text(table)]).rows.first?.first ?? .null
            rows.append([.text(table), columns, count])
        }
        Output.line("")
        Output.line(TableRenderer.render(columns: ["table", "columns", "rows"], rows: rows))
        if integrity != ["ok"] { throw IntegrityFailure(messages: integrity) }
    }
}
