import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

// A deterministic function, at file level as an app declares it (the 0.16 guide's tip).
@DatabaseFunction(isDeterministic: true)
func whisper(_ string: String) -> String {
    string.lowercased() + "…"
}

/// The spellings StructuredQueries' migration guides (0.16 to 0.32) give as the new ones, over
/// notebooks and their pages: database functions called with `$`, an upsert whose `where:` reads the
/// row and the excluded row, `eq` and `is(nil)` in place of `==`, `#bind` in an update, and `FTS5`
/// qualified by the module's name. Each test shows the SQL and, where it runs, the rows.
@Suite("Article: migration guides")
struct MigrationGuidesArticleTests {
    @Table("notebook")
    struct Notebook: Equatable {
        let id: Int
        var title = ""
    }

    @Table("page")
    struct Page: Equatable {
        let id: Int
        var title = ""
        var isPublished = false
        var dueDate: Date?
        var notebookID: Int
    }

    @Table("pageText")
    struct PageText: BoutiqueQueries.FTS5 {
        let title: String
    }

    let db: Connection
    init() throws {
        db = try Connection(path: ":memory:")
        try db.execute("""
            CREATE TABLE notebook (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '');
            CREATE TABLE page (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '',
                isPublished INTEGER NOT NULL DEFAULT 0, dueDate REAL, notebookID INTEGER NOT NULL);
            INSERT INTO notebook VALUES (1, 'Field notes'), (2, 'Sketches'), (3, 'Unused');
            INSERT INTO page VALUES (1, 'Birds', 1, NULL, 1), (2, 'Ferns', 0, 86400, 1), (3, 'Hands', 0, NULL, 2);
            """)
    }

    @Test func functionsAreCalledWithADollarSign() {
        // 0.16: a function is called with `$`; with `isDeterministic: true` SQLite may cache its result.
        let query = Page.select { $exclaim($0.title) }
        #expect(query.sql == #"SELECT "exclaim"("page"."title") FROM "page""#)
        let quiet = Page.select { $whisper($0.title) }
        #expect(quiet.sql == #"SELECT "whisper"("page"."title") FROM "page""#)
        #expect(whisper("Ferns") == "ferns…")
        #expect(jsonArrayExclaim(["a", "b"]) == ["A!", "B!"])
    }

    @Test func aConflictsWhereReadsTheRowAndTheExcludedRow() throws {
        // 0.28: the filter after `onConflictDoUpdate` takes the excluded row as its second parameter.
        // (The guide's `row.title = excluded.title += " Copy"` assigns the result of `+=`, which is
        // `Void` in StructuredQueries too; its meaning is written with `+`.)
        let upsert = Page.insert {
            Page(id: 1, title: "Birds", notebookID: 1)
            Page(id: 2, title: "Ferns", notebookID: 1)
        } onConflictDoUpdate: {
            $0.title = $1.title + " Copy"
        } where: { row, _ in
            row.isPublished
        }
        #expect(upsert.sql.hasSuffix(#"VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET "title" = (excluded."title" || ?) WHERE "page"."isPublished""#))
        try upsert.execute(db)
        #expect(try Page.order(by: \.id).select(\.title).fetchAll(db) == ["Birds Copy", "Ferns", "Hands"])

        let byExcluded = Page.insert {
            Page(id: 3, title: "Hands", notebookID: 9)
        } onConflictDoUpdate: {
            $0.notebookID = $1.notebookID
        } where: { row, excluded in
            row.notebookID.neq(excluded.notebookID)
        }
        try byExcluded.execute(db)
        #expect(try Page.find(3).select(\.notebookID).fetchOne(db) == 9)
    }

    @Test func eqAndIsInPlaceOfEquals() throws {
        // 0.31: StructuredQueries makes `==` and `!=` unavailable; `eq` and `is` are what it asks for.
        let counts = Notebook.group(by: \.id).leftJoin(Page.all) {
            $0.id.eq($1.notebookID)
        }.select { ($0.title, $1.id.count()) }
        #expect(counts.sql == #"SELECT "notebook"."title", count("page"."id") FROM "notebook" LEFT JOIN "page" ON ("notebook"."id" = "page"."notebookID") GROUP BY "notebook"."id""#)
        #expect(try counts.fetchAll(db).map(\.1) == [2, 1, 0])

        let undated = Page.where {
            $0.dueDate.is(nil)
        }
        #expect(undated.sql.hasSuffix(#"FROM "page" WHERE ("page"."dueDate" IS ?)"#))
        #expect(undated.bindings == [.null])
        #expect(try undated.fetchAll(db).map(\.id) == [1, 3])
    }

    @Test func bindInAnUpdate() throws {
        // 0.31: a Swift value assigned in an update is wrapped in `#bind`.
        let due = Date(timeIntervalSince1970: 1_800_000_000)
        let update = Page.where { $0.id.eq(3) }.update {
            $0.dueDate = #bind(due)
        }
        #expect(update.sql == #"UPDATE "page" SET "dueDate" = ? WHERE ("page"."id" = ?)"#)
        #expect(update.bindings == [.real(1_800_000_000), .integer(3)])
        try update.execute(db)
        #expect(try Page.find(3).select(\.dueDate).fetchOne(db) == due)
        // Without `#bind` the assignment compiles here too, and writes the same statement.
        let plain = Page.where { $0.id.eq(3) }.update { $0.dueDate = due }
        #expect(plain.sql == update.sql && plain.bindings == update.bindings)
    }

    @Test func ftsIsQualifiedByTheModule() throws {
        // 0.18: `FTS5` qualified by the module that declares it (`BoutiqueQueries`, which `import
        // BoutiqueDB` brings in; `BoutiqueDB.FTS5` would name a member of the database class).
        try db.execute(#"CREATE VIRTUAL TABLE "pageText" USING fts5("title")"#)
        try db.execute(#"INSERT INTO "pageText" ("title") VALUES ('Birds of the marsh'), ('Ferns')"#)
        let query = PageText.where { $0.match("marsh") }.select(\.title)
        #expect(try query.fetchAll(db) == ["Birds of the marsh"])
    }
}
