import BoutiqueQueries
import BoutiqueSQLite

/// The tables FTS5 keeps beside each FTS5 table (`x_data`, `x_idx`, `x_content`, `x_docsize`,
/// `x_config`), which the change log leaves out.
///
/// ```swift
/// let rows = try connection.fetchRows("SELECT type, name, tbl_name, rootpage, sql FROM sqlite_schema").rows
/// SearchIndexStorage.tables(amongSchemaRows: rows)   // ["notesearch_data", "notesearch_idx", …]
/// ```
///
/// They hold FTS5's own encoding of an index, written by FTS5 whenever its table is: derived data, like
/// the pages of an ordinary index. An FTS5 table made by `createFTS5Table` indexes a content table that
/// the log records, and every device that applies those rows indexes them with its own triggers; the
/// storage rows would be noise for a reader of the log, and a reader replaying them would write into
/// tables its own FTS5 writes. (The virtual table's rows never reach the log: SQLite reports no row
/// changes of virtual tables. Its `CREATE VIRTUAL TABLE` row in `sqlite_schema` is logged, like an
/// index's `CREATE INDEX`, so that a reader replaying the schema gets the same index, whose own
/// `CREATE` makes its storage.)
///
/// A table is FTS5's storage when it is named after an FTS5 table with one of FTS5's suffixes: SQLite's
/// own rule for shadow tables. A table that merely ends in `_data` is logged as any other.
enum SearchIndexStorage {
    /// The lowercased names of the storage tables of every FTS5 table among `rows`, each a
    /// `sqlite_schema` row (`type`, `name`, `tbl_name`, `rootpage`, `sql`).
    static func tables(amongSchemaRows rows: [[DatabaseValue]]) -> Set<String> {
        var tables: Set<String> = []
        for row in rows where row.count == 5 && row[0] == .text("table") {
            guard case .text(let name) = row[1], case .text(let sql) = row[4], FTS5Declaration.parse(sql) != nil else {
                continue
            }
            for storage in FTS5Declaration.storageTables(of: name) { tables.insert(storage.lowercased()) }
        }
        return tables
    }
}
