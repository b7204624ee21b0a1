import BoutiqueSQLite

/// The statements that create an FTS5 table indexing the text of an ordinary table, keep it in step
/// with that table, and index the rows it already holds.
///
/// ```swift
/// @Table
/// struct NoteSearch: FTS5 {
///     let id: UUID
///     let title: String
///     let body: String
/// }
///
/// print(CreateFTS5TableStatement(NoteSearch.self, content: Note.self, tokenizer: .porter()).sql)
/// // CREATE VIRTUAL TABLE "noteSearch" USING fts5("id" UNINDEXED, "title", "body", content='note',
/// //   tokenize = 'porter unicode61 remove_diacritics 2');
/// // CREATE TRIGGER "noteSearch_after_insert" AFTER INSERT ON "note" BEGIN … END;
/// // …
/// // INSERT INTO "noteSearch"("noteSearch") VALUES ('rebuild');
/// ```
///
/// The FTS5 table is an *external-content* table: it keeps only the index, and reads the text of each
/// match from the content table's row with the same rowid, so the text is stored once. Triggers on the
/// content table add each inserted row to the index, take each deleted row out, and do both when an
/// update changes an indexed column; the last statement (`'rebuild'`) indexes the rows already there.
///
/// Each column of the FTS5 model must be a column of the content table, by name. A `TEXT` column is
/// indexed, except the content model's primary key, which is there to find the row again; any other
/// column (a date, a number) is declared `UNINDEXED`: it can be read and sorted on, not matched. A
/// property named `rowid` reads FTS5's rowid, which is the content row's, and is not declared.
///
/// ``/BoutiqueDB/DatabaseConnection/createFTS5Table(_:content:tokenizer:)`` runs these statements after
/// checking the models against the database. Like ``CreateTableStatement``, the text comes from
/// today's models: print ``sql`` to keep a migration's statements as frozen text.
public struct CreateFTS5TableStatement: Hashable, Sendable {
    /// A column of the FTS5 table.
    package struct Column: Hashable, Sendable {
        package let name: String
        /// `false` for a column declared `UNINDEXED`.
        package let isIndexed: Bool
    }

    /// The FTS5 table's name.
    public let tableName: String
    /// The name of the table whose text it indexes.
    public let contentTableName: String
    /// How it splits text into tokens.
    public let tokenizer: FTS5Tokenizer
    /// Its columns, in order.
    package let columns: [Column]

    /// The FTS5 table for the `Search` model over the rows of the `Content` model's table.
    ///
    /// - Parameters:
    ///   - search: The `@Table … : FTS5` model the searches select from.
    ///   - content: The model whose table holds the text.
    ///   - tokenizer: How text is split into tokens (FTS5's own default: `unicode61`).
    public init<Search: FTS5, Content: Table>(
        _ search: Search.Type, content: Content.Type, tokenizer: FTS5Tokenizer = .unicode61()
    ) {
        let keys = Set(Content.TableColumns.allColumns.filter(\.isPrimaryKey).map { $0.name.lowercased() })
        tableName = Search.tableName
        contentTableName = Content.tableName
        self.tokenizer = tokenizer
        columns = Search.TableColumns.allColumns.filter { !FTS5ColumnPosition.isRowID($0.name) }.map { column in
            Column(name: column.name, isIndexed: column.sqlType == .text && !keys.contains(column.name.lowercased()))
        }
    }

    /// The statements, in the order they run: the table, its three triggers, and the rebuild.
    public var statements: [String] {
        let table = SQLIdentifier.quote(tableName)
        let content = SQLIdentifier.quote(contentTableName)
        let names = columns.map { SQLIdentifier.quote($0.name) }
        let declarations = zip(columns, names).map { $0.isIndexed ? $1 : $1 + " UNINDEXED" }
        let create = "CREATE VIRTUAL TABLE \(table) USING fts5("
            + (declarations + ["content=" + SQLLiteral.render(.text(contentTableName)), tokenizer.option])
                .joined(separator: ", ") + ")"
        let columnList = (["rowid"] + names).joined(separator: ", ")
        func values(_ row: String) -> String { ([row + ".rowid"] + names.map { row + "." + $0 }).joined(separator: ", ") }
        let add = "INSERT INTO \(table)(\(columnList)) VALUES (\(values("new")))"
        // External content: FTS5 cannot read a row's old text once it is gone, so the trigger hands it over.
        let remove = "INSERT INTO \(table)(\(table), \(columnList)) VALUES ('delete', \(values("old")))"
        let triggers = Self.triggerNames(of: tableName).map(SQLIdentifier.quote)
        // An update that changes no indexed column (a timestamp) leaves the index alone.
        let changed = (["old.rowid IS NOT new.rowid"]
            + zip(columns, names).filter { $0.0.isIndexed }.map { "old.\($0.1) IS NOT new.\($0.1)" })
            .joined(separator: " OR ")
        return [
            create,
            "CREATE TRIGGER \(triggers[0]) AFTER INSERT ON \(content) BEGIN \(add); END",
            "CREATE TRIGGER \(triggers[1]) AFTER DELETE ON \(content) BEGIN \(remove); END",
            "CREATE TRIGGER \(triggers[2]) AFTER UPDATE ON \(content) WHEN \(changed) BEGIN \(remove); \(add); END",
            Self.rebuildStatement(of: tableName),
        ]
    }

    /// Every statement, each ended by a semicolon, one per line: text a migration can run as it is.
    public var sql: String {
        statements.map { $0 + ";" }.joined(separator: "\n")
    }

    /// The names of the triggers that keep the FTS5 table `table` in step: after insert, delete, update.
    package static func triggerNames(of table: String) -> [String] {
        [table + "_after_insert", table + "_after_delete", table + "_after_update"]
    }

    /// FTS5's command that indexes the content table's rows anew, dropping whatever the index held.
    package static func rebuildStatement(of table: String) -> String {
        let quoted = SQLIdentifier.quote(table)
        return "INSERT INTO \(quoted)(\(quoted)) VALUES ('rebuild')"
    }
}
