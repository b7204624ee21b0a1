import BoutiqueDB

/// `boutique migrations FILE`: the migrations a database has applied.
enum MigrationsCommand: Command {
    static let name = "migrations"
    static let summary = "list the migrations a database file has applied, and when"
    static let help = """
        usage: boutique migrations FILE

        Lists the migration ids recorded in FILE, in the order they were applied, with their dates (UTC).
        Reads only.
        """

    static func run(_ arguments: inout ArgumentParser) async throws {
        let path = try arguments.takePositional("FILE")
        try arguments.finish()
        let connection = try DatabaseFile.openForReading(path)
        defer { connection.close() }
        let exists = try connection.fetchValue(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'boutique_migrations'")
        guard exists == .integer(1) else {
            Output.line("no migrations recorded in \(path)")
            return
        }
        let result = try connection.fetchRows(
            "SELECT id, strftime('%Y-%m-%d %H:%M:%S', appliedAt, 'unixepoch') AS appliedAt FROM boutique_migrations ORDER BY rowid")
        Output.line(TableRenderer.render(columns: ["id", "applied (UTC)"], rows: result.rows))
    }
}
