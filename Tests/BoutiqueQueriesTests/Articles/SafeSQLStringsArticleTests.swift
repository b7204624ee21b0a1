import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// The examples of StructuredQueries' "Safe SQL strings" article, with a shelf of jars for data: columns
/// inside `#sql` (named through `columns`: `Jar.columns.label` where the article writes `Jar.label`),
/// values bound (implicitly or with `bind:`), raw text, and SQL fragments mixed into the builder. Each
/// test shows the SQL and the rows.
@Suite("Article: safe SQL strings")
struct SafeSQLStringsArticleTests {
    @Table("jars")
    struct Jar: Equatable {
        let id: Int
        var label: String
        var isEmpty = false
        var bestBefore: Date?
    }

    static func database() throws -> Connection {
        let db = try Connection(path: ":memory:")
        try db.execute(#"CREATE TABLE "jars" ("id" INTEGER PRIMARY KEY, "label" TEXT NOT NULL, "isEmpty" INTEGER NOT NULL DEFAULT 0, "bestBefore" REAL)"#)
        try Jar.insert {
            Jar(id: 1, label: "Ginger jam", bestBefore: Date(timeIntervalSince1970: 0))
            Jar(id: 2, label: "Pickled GINGER", isEmpty: true, bestBefore: nil)
            Jar(id: 3, label: "Honey", bestBefore: Date(timeIntervalSince1970: 4_102_444_800))
        }.execute(db)
        return db
    }

    @Test func aColumnIsNamedOnTheTablesType() throws {
        let db = try Self.database()
        #expect(Jar.columns.label.queryFragment.sql == #""jars"."label""#)
        let expired = #sql(
            """
            SELECT \(Jar.columns)
            FROM \(Jar.self)
            WHERE \(Jar.columns.bestBefore) < unixepoch()
            """,
            as: Jar.self
        )
        #expect(expired.sql == """
            SELECT "jars"."id", "jars"."label", "jars"."isEmpty", "jars"."bestBefore"
            FROM "jars"
            WHERE "jars"."bestBefore" < unixepoch()
            """)
        #expect(try expired.fetchAll(db).map(\.id) == [1])
    }

    @Test func valuesAreBoundWithOrWithoutBindAndRawTextIsSQL() throws {
        let db = try Self.database()
        let searchText = "%ginger%"
        let implicit = #sql("SELECT \(Jar.columns) FROM \(Jar.self) WHERE \(Jar.columns.label) COLLATE NOCASE LIKE \(searchText)", as: Jar.self)
        let explicit = #sql("SELECT \(Jar.columns) FROM \(Jar.self) WHERE \(Jar.columns.label) COLLATE NOCASE LIKE \(bind: searchText)", as: Jar.self)
        #expect(explicit.sql.hasSuffix(#"WHERE "jars"."label" COLLATE NOCASE LIKE ?"#))
        #expect(explicit.sql == implicit.sql)
        #expect(explicit.bindings == [.text("%ginger%")])
        #expect(try explicit.fetchAll(db).map(\.id) == [1, 2])

        let raw = #sql("SELECT \(Jar.columns) FROM \(Jar.self) WHERE \(Jar.columns.label) COLLATE NOCASE LIKE '\(raw: searchText)'", as: Jar.self)
        #expect(raw.sql.hasSuffix(#"LIKE '%ginger%'"#))
        #expect(raw.bindings.isEmpty)
        #expect(try raw.fetchAll(db).map(\.id) == [1, 2])

        // A bound value is never SQL: the classic injection text matches nothing.
        let hostile = "' OR 1=1 OR '"
        #expect(try #sql("SELECT \(Jar.columns) FROM \(Jar.self) WHERE \(Jar.columns.label) LIKE \(bind: hostile)", as: Jar.self).fetchAll(db).isEmpty)
    }

    @Test func sqlFragmentsInsideTheBuilder() throws {
        let db = try Self.database()
        let before = Jar.where { $0.bestBefore < #sql("unixepoch()") }
        #expect(before.sql.hasSuffix(#"WHERE ("jars"."bestBefore" < unixepoch())"#))
        #expect(try before.fetchAll(db).map(\.id) == [1])
        let same = Jar.where { #sql("\($0.bestBefore) < unixepoch()") }
        #expect(try same.fetchAll(db).map(\.id) == [1])

        let counted = Jar.select { #sql("\($0.id.count()) || ' jars'", as: String.self) }
        #expect(counted.sql == #"SELECT count("jars"."id") || ' jars' FROM "jars""#)
        #expect(try counted.fetchOne(db) == "3 jars")
    }
}
