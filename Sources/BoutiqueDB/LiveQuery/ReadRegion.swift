import BoutiqueQueries
import BoutiqueSQLite

/// The tables a query reads, as SQLite reports them while it compiles the query.
///
/// ```swift
/// let region = try ReadRegion.of("SELECT title FROM note JOIN tag ON …", on: reader)
/// region.tables   // ["note", "tag"]
/// ```
///
/// The authorizer names every table a statement reads (`SQLITE_READ`), through views, subqueries and
/// joins, before the statement runs. A commit that changed none of them cannot change the query's
/// result, so the query is not run again. A virtual table (full-text search) is written through its
/// shadow tables (`name_content`, `name_data`, …), so a commit to a table named after it counts too.
/// An FTS5 table over a content table (`content='note'`) reads its text from there and changes only
/// when it does, so the content table is read too: that table's changes are in the change log, which
/// is how other processes learn of a commit, and FTS5's own tables are not.
struct ReadRegion: Sendable, Hashable {
    /// Lowercased names of the tables read.
    var tables: Set<String>
    /// Lowercased names of the virtual tables read.
    var virtualTables: Set<String> = []

    /// Whether the query reads a pragma's table-valued function (`pragma_table_info`, `pragma_optimize`):
    /// running one runs the pragma.
    var readsPragmaFunction: Bool { tables.contains { $0.hasPrefix("pragma_") } }

    /// Whether a commit that changed `changed` (lowercased names) can change what the query reads.
    func intersects(_ changed: Set<String>) -> Bool {
        if !tables.isDisjoint(with: changed) { return true }
        guard !virtualTables.isEmpty else { return false }
        return changed.contains { table in virtualTables.contains { table.hasPrefix($0 + "_") } }
    }

    /// Compiles `sql` on `connection` (without running it) and collects what it reads.
    static func of(_ sql: String, on connection: Connection) throws(SQLiteError) -> ReadRegion {
        let collected = Collected()
        try connection.setAuthorizer { event in
            if event.actionCode == AuthorizerEvent.read, let table = event.parameter1,
                event.databaseName == nil || event.databaseName == "main"
            {
                collected.tables.insert(table.lowercased())
            }
            return .allow
        }
        defer { try? connection.setAuthorizer(nil) }
        let statement = try connection.prepare(sql)
        statement.finalize()
        var region = ReadRegion(tables: collected.tables)
        for table in collected.tables {
            let sql = try connection.fetchValue(
                "SELECT sql FROM main.sqlite_schema WHERE type = 'table' AND lower(name) = ?", [.text(table)])
            if case .text(let text)? = sql, text.uppercased().hasPrefix("CREATE VIRTUAL TABLE") {
                region.virtualTables.insert(table)
                if let content = FTS5Declaration.parse(text)?.contentTable, !content.isEmpty {
                    region.tables.insert(content.lowercased())
                }
            }
        }
        return region
    }

    /// The authorizer's findings; it runs synchronously on the connection's thread.
    private final class Collected {
        var tables: Set<String> = []
    }
}
