/// Table options for a ``Table(_:)`` struct, and the `CREATE TABLE` statement they give.
///
/// ```swift
/// @Table @BoutiqueTable(strict: true, withoutRowID: true)
/// struct Note { @Column(primaryKey: true) let id: UUID; var title: String }
///
/// try Note.createTable().execute(connection)
/// print(Note.createTableSQL)
/// // CREATE TABLE "note" ("id" TEXT PRIMARY KEY NOT NULL, "title" TEXT NOT NULL) STRICT, WITHOUT ROWID
/// ```
///
/// - Parameters:
///   - strict: Declares the table `STRICT`: SQLite then refuses values of the wrong type.
///   - withoutRowID: Declares the table `WITHOUT ROWID`, stored by its primary key (which it must have).
@attached(extension, conformances: BoutiqueTableOptions, names: named(tableOptions))
public macro BoutiqueTable(strict: Bool = false, withoutRowID: Bool = false) =
    #externalMacro(module: "BoutiqueMacros", type: "BoutiqueTableMacro")
