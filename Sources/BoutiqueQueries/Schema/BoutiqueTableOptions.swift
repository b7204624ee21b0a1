/// A table with BoutiqueDB table options, which can render its own `CREATE TABLE` statement.
/// Declare the conformance with `@BoutiqueTable` beside `@Table`.
///
/// ```swift
/// @Table @BoutiqueTable(strict: true)
/// struct Note { let id: Int; var title: String }
///
/// try Note.createTable(ifNotExists: true).execute(connection)
/// print(Note.createTableSQL)   // CREATE TABLE "note" ("id" INTEGER PRIMARY KEY NOT NULL, "title" TEXT NOT NULL) STRICT
/// ```
///
/// Migrations keep their SQL as frozen text: use the statement to write a migration, not to replace one.
public protocol BoutiqueTableOptions: Table {
    /// The options the table is declared with.
    static var tableOptions: TableOptions { get }
}

extension BoutiqueTableOptions {
    /// The table's `CREATE TABLE` statement; with `ifNotExists`, `CREATE TABLE IF NOT EXISTS`.
    public static func createTable(ifNotExists: Bool = false) -> CreateTableStatement {
        CreateTableStatement(Self.self, options: tableOptions, ifNotExists: ifNotExists)
    }

    /// The SQL of ``createTable(ifNotExists:)``: the table's DDL, for printing or for a migration.
    public static var createTableSQL: String { createTable().sql }
}
