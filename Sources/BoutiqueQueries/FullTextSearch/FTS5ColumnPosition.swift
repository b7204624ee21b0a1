/// Where an FTS5 model's columns sit in its FTS5 table, for the auxiliary functions (`bm25`,
/// `highlight`, `snippet`) that take columns by position.
///
/// ```swift
/// FTS5ColumnPosition.columns(of: NoteSearch.self)   // ["id", "title", "body"]
/// ```
///
/// A model's `rowid` property reads FTS5's rowid, which is no column of the table: the positions of
/// the columns after it would otherwise be one off.
enum FTS5ColumnPosition {
    /// Whether a property named `name` reads the rowid instead of a column.
    static func isRowID(_ name: String) -> Bool {
        name.lowercased() == "rowid"
    }

    /// The names of `Root`'s FTS5 columns, in the table's order.
    static func columns<Root: Table>(of root: Root.Type) -> [String] {
        Root.TableColumns.allColumns.map(\.name).filter { !isRowID($0) }
    }
}

/// A column handle whose name a key path can reach without knowing its value type.
protocol FTS5NamedColumn {
    /// The column's SQL name.
    var name: String { get }
}

extension TableColumn: FTS5NamedColumn {}
