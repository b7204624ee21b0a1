/// A table stored as an SQLite FTS5 virtual table, searchable with `MATCH` and ranked by relevance.
///
/// ```swift
/// @Table
/// struct ReminderText: FTS5 {
///     let rowid: Int
///     let title: String
///     let notes: String
/// }
///
/// ReminderText.where { $0.match("groceries") }.order(by: \.rank)
/// ```
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

    /// `bm25("table")`: the matched row's BM25 relevance with every column weighted alike (smaller is
    /// better).
    public func bm25() -> SQLExpression<Double> {
        SQLExpression("bm25(" + Root.quotedTableName + ")")
    }
}

extension TableColumn where Root: FTS5, Value: QueryText {
    /// The column's position among the virtual table's columns, as FTS5's auxiliary functions take it.
    /// Every handle `@Table` generates names a declared column, so the search always finds it.
    private var columnIndex: Int {
        Root.TableColumns.allColumns.firstIndex { $0.name == name } ?? 0
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
