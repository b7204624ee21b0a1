import BoutiqueQueries
import BoutiqueSQLite

extension DatabaseConnection {
    /// Creates the FTS5 table of the `Search` model as a full-text index of the `Content` model's
    /// table, with the triggers that keep it in step, and indexes the rows the table already holds.
    ///
    /// ```swift
    /// BoutiqueMigration("v3_search_notes") { conn in
    ///     try conn.createFTS5Table(NoteSearch.self, content: Note.self, tokenizer: .porter())
    /// }
    /// ```
    ///
    /// The FTS5 table stores only the index; the text stays in the content table, whose triggers update
    /// the index on every insert, delete and update, whatever makes them (the query builder, raw SQL,
    /// rows a sync pulls). ``CreateFTS5TableStatement`` describes the statements. Only the content
    /// table's rows are changes: the change log and sync leave the FTS5 table and the tables FTS5 keeps
    /// beside it out, and each device indexes the rows it receives itself.
    ///
    /// The statements come from today's models, like `createTable()`'s. Before either model changes
    /// after this migration has shipped, replace the call with the frozen text of
    /// `CreateFTS5TableStatement(...).sql`, which creates the same objects. To change the index later,
    /// append a migration that calls ``dropFTS5Table(_:)`` and this method again.
    ///
    /// - Parameters:
    ///   - search: The `@Table … : FTS5` model. Each of its columns must be a column of the content table.
    ///   - content: The model whose table holds the text: a rowid table (not `WITHOUT ROWID`), since FTS5
    ///     finds content rows by rowid.
    ///   - tokenizer: How text is split into tokens.
    /// - Throws: ``BoutiqueError/invalidArgument(_:)`` naming what does not fit (a column the content table
    ///   lacks, a missing or `WITHOUT ROWID` content table, no text column to index); the SQLite error
    ///   when a statement fails. All statements run in one savepoint: a failure leaves nothing behind.
    public func createFTS5Table<Search: FTS5, Content: Table>(
        _ search: Search.Type, content: Content.Type, tokenizer: FTS5Tokenizer = .unicode61()
    ) throws {
        let statement = CreateFTS5TableStatement(search, content: content, tokenizer: tokenizer)
        try FTS5ContentCheck(statement).validate(on: connection)
        try inSavepoint(statement.statements)
    }

    /// Indexes the content table's rows anew (FTS5's `'rebuild'`), for an FTS5 table made by
    /// ``createFTS5Table(_:content:tokenizer:)``.
    ///
    /// ```swift
    /// try await db.write { conn in try conn.rebuildFTS5Table(NoteSearch.self) }
    /// ```
    ///
    /// The triggers keep the index current, so this is for repairs: after rows were written with
    /// triggers off, or after a `VACUUM`, which may renumber the rowids of a table without an `INTEGER
    /// PRIMARY KEY` and so detach the index from the rows.
    public func rebuildFTS5Table<Search: FTS5>(_ search: Search.Type) throws {
        try execute(CreateFTS5TableStatement.rebuildStatement(of: Search.tableName))
    }

    /// Drops the FTS5 table of `Search` and the triggers ``createFTS5Table(_:content:tokenizer:)`` put on
    /// its content table; nothing happens for those that do not exist.
    ///
    /// ```swift
    /// BoutiqueMigration("v4_search_titles_only") { conn in
    ///     try conn.dropFTS5Table(NoteSearch.self)
    ///     try conn.createFTS5Table(NoteSearch.self, content: Note.self)
    /// }
    /// ```
    ///
    /// Dropping the table alone would leave triggers that write into it, and every later write to the
    /// content table would fail.
    public func dropFTS5Table<Search: FTS5>(_ search: Search.Type) throws {
        let triggers = CreateFTS5TableStatement.triggerNames(of: Search.tableName).map {
            "DROP TRIGGER IF EXISTS " + SQLIdentifier.quote($0)
        }
        try inSavepoint(triggers + ["DROP TABLE IF EXISTS " + SQLIdentifier.quote(Search.tableName)])
    }

    /// Runs `statements` in order, all or none.
    private func inSavepoint(_ statements: [String]) throws {
        try execute("SAVEPOINT boutique_fts5")
        do {
            for statement in statements { try execute(statement) }
        } catch {
            try? execute("ROLLBACK TO boutique_fts5")
            try? execute("RELEASE boutique_fts5")
            throw error
        }
        try execute("RELEASE boutique_fts5")
    }
}
