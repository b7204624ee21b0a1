import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// The examples of StructuredQueries' "Safe SQL strings" article, with a shelf of jars for data: columns
/// inside `#sql` (through `columns`, `Jar.columns.label`, or on the type, `Preserve.dueDate`), values
/// bound (implicitly or with `bind:`), raw text, a statement without a result, and SQL fragments mixed
/// into the builder. Each test shows the SQL and the rows. The linter's examples (an unclosed
/// parenthesis, a value inside a SQL string) are compile-time diagnostics, checked by the macro's tests.
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
    /// A jar with its dates stored as ISO-8601 text, which SQLite's `date()` compares as the article's
    /// examples do (a plain `Date` column holds seconds here, see "Moving from StructuredQueries").
    @Table("preserves")
    struct Preserve: Equatable {
        let id: Int
        var label: String
        var isOpened = false
        @Column(as: Date.ISO8601Representation.self)
        var dueDate: Date?
    }

    static func preserves() throws -> Connection {
        let db = try Connection(path: ":memory:")
        try db.execute(#"CREATE TABLE "preserves" ("id" INTEGER PRIMARY KEY, "label" TEXT NOT NULL, "isOpened" INTEGER NOT NULL DEFAULT 0, "dueDate" TEXT)"#)
        try Preserve.insert {
            Preserve(id: 1, label: "Plum", isOpened: true, dueDate: Date(timeIntervalSince1970: 946_684_800))
            Preserve(id: 2, label: "Quince", dueDate: Date(timeIntervalSince1970: 4_102_444_800))
            Preserve(id: 3, label: "Fig", isOpened: true, dueDate: nil)
        }.execute(db)
        return db
    }

    @Test func aFragmentOrAWholeWhereClauseAgainstDate() throws {
        let db = try Self.preserves()
        let fragment = Preserve
            .where { $0.dueDate < #sql("date()") }
        #expect(fragment.sql == #"SELECT "preserves"."id", "preserves"."label", "preserves"."isOpened", "preserves"."dueDate" FROM "preserves" WHERE ("preserves"."dueDate" < date())"#)
        #expect(try fragment.fetchAll(db).map(\.id) == [1])
        let whole = Preserve
            .where { #sql("\($0.dueDate) < date()") }
        #expect(whole.sql == #"SELECT "preserves"."id", "preserves"."label", "preserves"."isOpened", "preserves"."dueDate" FROM "preserves" WHERE "preserves"."dueDate" < date()"#)
        #expect(try whole.fetchAll(db).map(\.id) == [1])
    }

    @Test func aWholeStatementNamesColumnsOnTheType() throws {
        let db = try Self.preserves()
        let statement = #sql(
            """
            SELECT \(Preserve.columns)
            FROM \(Preserve.self)
            WHERE \(Preserve.dueDate) < date()
            """,
            as: Preserve.self
        )
        #expect(statement.sql == """
            SELECT "preserves"."id", "preserves"."label", "preserves"."isOpened", "preserves"."dueDate"
            FROM "preserves"
            WHERE "preserves"."dueDate" < date()
            """)
        #expect(try statement.fetchAll(db).map(\.label) == ["Plum"])
    }

    @Test func aStatementWithoutAsReturnsNothing() throws {
        let db = try Self.preserves()
        let migration = #sql(
            """
            ALTER TABLE "preserves"
            ADD COLUMN "notes" TEXT NOT NULL DEFAULT ''
            """
        )
        try migration.execute(db)
        #expect(try #sql("SELECT count(*) FROM pragma_table_info('preserves') WHERE name = 'notes'", as: Int.self).fetchOne(db) == 1)
    }

    @Test func aBoolIsBound() throws {
        let db = try Self.preserves()
        let isOpened = true
        let count = #sql(
            """
            SELECT count(*)
            FROM \(Preserve.self)
            WHERE \(Preserve.isOpened) = \(isOpened)
            """,
            as: Int.self
        )
        #expect(count.sql == """
            SELECT count(*)
            FROM "preserves"
            WHERE "preserves"."isOpened" = ?
            """)
        #expect(count.bindings == [.integer(1)])
        #expect(try count.fetchOne(db) == 2)
    }

    @Test func rawTextIsOpenToInjection() throws {
        let db = try Self.preserves()
        let searchText = "' OR 1=1 OR '"
        let injected = #sql(
            """
            SELECT \(Preserve.columns)
            FROM \(Preserve.self)
            WHERE \(Preserve.label) COLLATE NOCASE LIKE '%\(raw: searchText)%'
            """,
            as: Preserve.self
        )
        #expect(injected.sql.hasSuffix(#"WHERE "preserves"."label" COLLATE NOCASE LIKE '%' OR 1=1 OR '%'"#))
        #expect(try injected.fetchAll(db).count == 3)
    }
}
