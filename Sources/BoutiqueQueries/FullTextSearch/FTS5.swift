import BoutiqueSQLite

/// A table stored as an SQLite FTS5 virtual table, searchable with `MATCH` and ranked by relevance.
///
/// ```swift
/// @Table
/// struct NoteSearch: FTS5 {
///     let id: UUID
///     let title: String
///     let body: String
/// }
///
/// NoteSearch.where { $0.match("lemons") }.order { $0.rank }.select { $0.title.highlight("[", "]") }
/// ```
///
/// A migration creates the table with
/// ``/BoutiqueDB/DatabaseConnection/createFTS5Table(_:content:tokenizer:)``, as an index of the text
/// of an ordinary table that triggers keep it in step with. A property named `rowid` reads FTS5's
/// rowid; every other property is a column of the FTS5 table.
public protocol FTS5: Table {}

extension TableDefinition where Root: FTS5 {
    /// `("table" MATCH ?)`: rows of the table matching the FTS5 query `pattern` (bound, never spliced).
    public func match(_ pattern: some StringProtocol) -> SQLExpression<Bool> {
        SQLExpression("(" + Root.quotedTableName + " MATCH " + String.bound(String(pattern)) + ")")
    }

    /// The table's hidden `rank` column: the match's relevance, smaller is better; `nil` outside a match.
    public var rank: SQLExpression<Double?> {
        SQLExpression(Root.quotedTableName + ".\"rank\"")
    }

    /// `bm25("table", …)`: the matched row's BM25 relevance (smaller is better), each column's matches
    /// weighted by `weights` (1 for the columns it leaves out).
    ///
    /// ```swift
    /// NoteSearch.where { $0.match("lemon") }.order { $0.bm25([\.title: 10, \.body: 1]) }
    /// // ORDER BY bm25("noteSearch", ?, ?, ?)   — a title match counts ten times a body match
    /// ```
    ///
    /// The weights are bound, one per column of the table in order. A key path that names no column
    /// (`\.rank`) makes the statement fail with an error saying so when it runs.
    public func bm25(_ weights: KeyValuePairs<PartialKeyPath<Self>, Double> = [:]) -> SQLExpression<Double> {
        guard !weights.isEmpty else { return SQLExpression("bm25(" + Root.quotedTableName + ")") }
        let columns = FTS5ColumnPosition.columns(of: Root.self)
        var perColumn = Array(repeating: 1.0, count: columns.count)
        for (keyPath, weight) in weights {
            guard let column = self[keyPath: keyPath] as? any FTS5NamedColumn,
                let index = columns.firstIndex(where: { $0.lowercased() == column.name.lowercased() })
            else {
                // No trap and no silently ignored weight: a column name SQLite cannot resolve, which
                // fails the statement with this text in its message. Qualified by the table, since
                // SQLite reads an unresolved unqualified name in double quotes as a string.
                return SQLExpression(Root.quotedTableName + "." + SQLIdentifier.quote(
                    "bm25 was given a weight for a key path that is not a column of \(Root.tableName)"))
            }
            perColumn[index] = weight
        }
        var fragment = QueryFragment("bm25(" + Root.quotedTableName)
        for weight in perColumn { fragment = fragment + ", " + Double.bound(weight) }
        return SQLExpression(fragment + ")")
    }
}

extension TableColumn where Root: FTS5, Value: QueryText {
    /// The column's position among the virtual table's columns, as FTS5's auxiliary functions take it.
    /// Every handle `@Table` generates names a declared column, so the search always finds it.
    private var columnIndex: Int {
        FTS5ColumnPosition.columns(of: Root.self).firstIndex { $0 == name } ?? 0
    }

    /// `("table"."column" MATCH ?)`: rows whose column matches the FTS5 query `pattern`.
    public func match(_ pattern: some StringProtocol) -> SQLExpression<Bool> {
        SQLExpression("(" + queryFragment + " MATCH " + String.bound(String(pattern)) + ")")
    }

    /// `highlight("table", n, ?, ?)`: the column's text with each matched phrase between `open` and
    /// `close`.
    public func highlight(_ open: some StringProtocol, _ close: some StringProtocol) -> SQLExpression<Value> {
        SQLExpression(
            "highlight(" + Root.quotedTableName + ", \(columnIndex), " + String.bound(String(open)) + ", "
                + String.bound(String(close)) + ")")
    }

    /// `snippet("table", n, ?, ?, ?, tokens)`: a passage of at most `tokens` tokens around the match,
    /// matched phrases between `open` and `close`, cut text marked by `ellipsis`.
    public func snippet(
        _ open: some StringProtocol, _ close: some StringProtocol, _ ellipsis: some StringProtocol, _ tokens: Int
    ) -> SQLExpression<Value> {
        SQLExpression(
            "snippet(" + Root.quotedTableName + ", \(columnIndex), " + String.bound(String(open)) + ", "
                + String.bound(String(close)) + ", " + String.bound(String(ellipsis)) + ", "
                + Int.bound(tokens) + ")")
    }
}
