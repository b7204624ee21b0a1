import BoutiqueQueries
import BoutiqueSQLite

/// Checks an FTS5 table's models against the database before its statements run, so that a mistake
/// is an error naming it rather than an index that silently finds nothing.
///
/// ```swift
/// try FTS5ContentCheck(statement).validate(on: connection)
/// // invalid argument: the FTS5 table 'noteSearch' has a column 'summary' that its content table 'note' lacks
/// ```
///
/// FTS5 itself accepts an external-content table whose columns the content table lacks, and fails
/// only when a search reads them; a trigger or the rebuild would fail with a bare "no such column".
struct FTS5ContentCheck {
    let statement: CreateFTS5TableStatement

    init(_ statement: CreateFTS5TableStatement) {
        self.statement = statement
    }

    func validate(on connection: Connection) throws {
        let table = statement.tableName
        let content = statement.contentTableName
        guard table.lowercased() != content.lowercased() else {
            throw BoutiqueError.invalidArgument("the FTS5 table '\(table)' cannot be its own content table")
        }
        try checkTokenizer()
        let object: [DatabaseValue]?
        do {
            object = try connection.fetchRows(
                "SELECT type, wr FROM pragma_table_list WHERE schema = 'main' AND name = ? COLLATE NOCASE",
                [.text(content)]
            ).rows.first
        } catch {
            throw BoutiqueError(error)
        }
        guard let object, object.count == 2, object[0] == .text("table") else {
            throw BoutiqueError.invalidArgument(
                "the content table '\(content)' of the FTS5 table '\(table)' does not exist (create it in an earlier migration)")
        }
        guard object[1] != .integer(1) else {
            throw BoutiqueError.invalidArgument(
                "the content table '\(content)' is WITHOUT ROWID; FTS5 finds content rows by rowid")
        }
        try checkColumns()
        let existing: Set<String>
        do {
            existing = Set(try connection.fetchRows("SELECT name FROM pragma_table_xinfo(?, 'main')", [.text(content)])
                .rows.compactMap { row -> String? in
                    if case .text(let name)? = row.first { name.lowercased() } else { nil }
                })
        } catch {
            throw BoutiqueError(error)
        }
        for column in statement.columns where !existing.contains(column.name.lowercased()) {
            throw BoutiqueError.invalidArgument(
                "the FTS5 table '\(table)' has a column '\(column.name)' that its content table '\(content)' lacks")
        }
    }

    /// Names FTS5 refuses or reserves, and a table with nothing to index.
    private func checkColumns() throws {
        let table = statement.tableName
        var seen: Set<String> = []
        for column in statement.columns {
            let name = column.name.lowercased()
            guard name != "rank", name != table.lowercased() else {
                throw BoutiqueError.invalidArgument(
                    "the FTS5 table '\(table)' cannot have a column named '\(column.name)': FTS5 uses that name itself")
            }
            guard seen.insert(name).inserted else {
                throw BoutiqueError.invalidArgument("the FTS5 table '\(table)' names the column '\(column.name)' twice")
            }
        }
        guard statement.columns.contains(where: \.isIndexed) else {
            throw BoutiqueError.invalidArgument(
                "the FTS5 table '\(table)' has no text column to index (its key and non-text columns are not indexed)")
        }
    }

    /// A NUL character cannot be written inside the `CREATE VIRTUAL TABLE` text.
    private func checkTokenizer() throws {
        guard !statement.tokenizer.arguments.contains(where: { $0.utf8.contains(0) }) else {
            throw BoutiqueError.invalidArgument("the tokenizer's characters cannot include a NUL character")
        }
    }
}
