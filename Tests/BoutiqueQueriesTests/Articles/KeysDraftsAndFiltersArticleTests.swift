import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// The examples of StructuredQueries' "Where clauses", "Aggregate functions", "Delete statements",
/// "Primary keyed tables" and "Table drafts" articles, with a kitchen's chores for data. Each test shows
/// the SQL and the rows.
@Suite("Articles: where clauses, aggregates, deletes, primary keys and drafts")
struct KeysDraftsAndFiltersArticleTests {
    @Table("chores")
    struct Chore: Equatable {
        let id: Int
        var title = ""
        var isDone = false
        var effort: Int?
    }

    /// A table keyed by a text column named otherwise than `id`.
    @Table("recipes")
    struct Recipe: Equatable {
        @Column(primaryKey: true)
        let code: String
        var name: String
    }

    static func database() throws -> Connection {
        let db = try Connection(path: ":memory:")
        try db.execute(#"CREATE TABLE "chores" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '', "isDone" INTEGER NOT NULL DEFAULT 0, "effort" INTEGER)"#)
        try db.execute(#"CREATE TABLE "recipes" ("code" TEXT PRIMARY KEY NOT NULL, "name" TEXT NOT NULL)"#)
        try Chore.insert {
            Chore(id: 1, title: "Descale kettle", isDone: true, effort: 2)
            Chore(id: 2, title: "Sharpen knives", isDone: false, effort: 3)
            Chore(id: 3, title: "Wipe shelves", isDone: true, effort: nil)
            Chore(id: 4, title: "Defrost freezer", isDone: false, effort: 5)
        }.execute(db)
        return db
    }

    // MARK: Where clauses

    @Test func aKeyPathFilterUpdatesAndDeletes() throws {
        let db = try Self.database()
        let done: Where<Chore> = Chore.where(\.isDone)
        #expect(done.sql.hasSuffix(#"FROM "chores" WHERE "chores"."isDone""#))
        #expect(try done.fetchAll(db).map(\.id) == [1, 3])

        let reopen = Chore.where(\.isDone).update { $0.isDone = false }
        #expect(reopen.sql == #"UPDATE "chores" SET "isDone" = ? WHERE "chores"."isDone""#)
        try reopen.execute(db)
        #expect(try Chore.where(\.isDone).fetchCount(db) == 0)

        try Chore.find(4).update { $0.isDone.toggle() }.execute(db)
        let removeDone = Chore.where(\.isDone).delete()
        #expect(removeDone.sql == #"DELETE FROM "chores" WHERE "chores"."isDone""#)
        try removeDone.execute(db)
        #expect(try Chore.order(by: \.id).fetchAll(db).map(\.id) == [1, 2, 3])
    }

    // MARK: Aggregate functions

    @Test func averagesFilteredCountsAndOrderedConcatenation() throws {
        let db = try Self.database()
        let average = Chore.select { $0.effort.avg() }
        #expect(average.sql == #"SELECT avg("chores"."effort") FROM "chores""#)
        #expect(try average.fetchOne(db) == .some(10.0 / 3))

        let doneCount = Chore.select { $0.id.count(filter: $0.isDone) }
        #expect(doneCount.sql == #"SELECT count("chores"."id") FILTER (WHERE "chores"."isDone") FROM "chores""#)
        #expect(try doneCount.fetchOne(db) == 2)

        let titles = Chore.select { $0.title.groupConcat(", ", order: $0.title) }
        #expect(titles.sql == #"SELECT group_concat("chores"."title", ? ORDER BY "chores"."title") FROM "chores""#)
        // ORDER BY inside an aggregate needs SQLite 3.44: on an older library the statement is refused.
        if try sqliteSupportsOrderedAggregates(db) {
            #expect(try titles.fetchOne(db) == .some("Defrost freezer, Descale kettle, Sharpen knives, Wipe shelves"))
        } else {
            #expect(throws: BoutiqueError.self) { try titles.fetchOne(db) }
        }
    }

    // MARK: Delete statements

    @Test func deletesOfAllOfOneRowAndReturningTheRows() throws {
        let db = try Self.database()
        let byID = Chore.where { $0.id == 4 }.delete()
        #expect(byID.sql == #"DELETE FROM "chores" WHERE ("chores"."id" = ?)"#)
        try byID.execute(db)

        let stored = try #require(try Chore.find(3).fetchOne(db))
        let row = Chore.delete(stored)
        #expect(row.sql.hasPrefix(#"DELETE FROM "chores" WHERE "#))
        try row.execute(db)

        let returning = Chore.delete().where { $0.id == 2 }.returning(\.self)
        #expect(returning.sql == #"DELETE FROM "chores" WHERE ("chores"."id" = ?) RETURNING "id", "title", "isDone", "effort""#)
        #expect(try returning.fetchAll(db) == [Chore(id: 2, title: "Sharpen knives", isDone: false, effort: 3)])

        try Chore.delete().execute(db)
        #expect(try Chore.all.fetchCount(db) == 0)
    }

    // MARK: Primary keyed tables

    @Test func aKeyOtherThanIDFindsUpdatesAndUpserts() throws {
        let db = try Self.database()
        try Recipe.insert { Recipe(code: "soup-1", name: "Leek soup") }.execute(db)
        let found = Recipe.find("soup-1")
        #expect(found.sql.hasSuffix(#"FROM "recipes" WHERE ("recipes"."code" = ?)"#))
        #expect(try found.fetchOne(db) == Recipe(code: "soup-1", name: "Leek soup"))

        let rename = Recipe.update(Recipe(code: "soup-1", name: "Leek and potato soup"))
        #expect(rename.sql == #"UPDATE "recipes" SET "name" = ? WHERE "recipes"."code" = ?"#)
        try rename.execute(db)
        try Recipe.upsert { Recipe(code: "soup-1", name: "Potato soup") }.execute(db)
        #expect(try Recipe.all.fetchAll(db) == [Recipe(code: "soup-1", name: "Potato soup")])
    }

    @Test func findUpdateToggleUpsertAndDeleteARowByItsKey() throws {
        let db = try Self.database()
        let insert = Chore.insert { Chore.Draft(title: "Oil the board") }
        #expect(insert.sql == #"INSERT INTO "chores" ("id", "title", "isDone", "effort") VALUES (?, ?, ?, ?)"#)
        try insert.execute(db)
        #expect(try Chore.find(5).fetchOne(db) == Chore(id: 5, title: "Oil the board"))

        let toggle = Chore.find(5).update { $0.isDone.toggle() }
        #expect(toggle.sql == #"UPDATE "chores" SET "isDone" = (NOT "isDone") WHERE ("chores"."id" = ?)"#)
        try toggle.execute(db)
        #expect(try Chore.find(5).select(\.isDone).fetchOne(db) == true)

        try Chore.update(Chore(id: 5, title: "Oil the boards", isDone: false)).execute(db)
        #expect(try Chore.find(5).fetchOne(db) == Chore(id: 5, title: "Oil the boards"))

        // The deprecated one-draft spelling the article shows still runs.
        try upsertOneDraft(Chore.Draft(id: 5, title: "Oil every board", isDone: true), in: db)
        #expect(try Chore.find(5).fetchOne(db) == Chore(id: 5, title: "Oil every board", isDone: true))

        try Chore.delete(Chore(id: 5, title: "Oil every board", isDone: true)).execute(db)
        try Chore.find(1).delete().execute(db)
        #expect(try Chore.order(by: \.id).fetchAll(db).map(\.id) == [2, 3, 4])
    }

    /// Calls the deprecated `upsert(_:)` through a protocol it witnesses, so that the test builds
    /// without a deprecation warning.
    func upsertOneDraft(_ draft: Chore.Draft, in db: Connection) throws {
        let upsert = (Chore.self as any UpsertingOneDraft.Type).upsertOne(draft)
        #expect(upsert.sql.hasPrefix(#"INSERT INTO "chores" ("id", "title", "isDone", "effort") VALUES (?, ?, ?, ?) ON CONFLICT ("id") DO UPDATE SET"#))
        try upsert.execute(db)
    }

    // MARK: Table drafts

    @Test func draftsAreInsertedReturnedAndMadeFromRows() throws {
        let db = try Self.database()
        let id = try Chore.insert { Chore.Draft(title: "Clean the oven") }.returning(\.id).fetchOne(db)
        #expect(id == 5)
        let inserted = Chore.insert { Chore.Draft(title: "Sort the spices", effort: 1) }.returning(\.self)
        #expect(inserted.sql.hasSuffix(#"RETURNING "id", "title", "isDone", "effort""#))
        #expect(try inserted.fetchAll(db) == [Chore(id: 6, title: "Sort the spices", isDone: false, effort: 1)])

        // A form's draft for a stored row, edited and written back.
        let stored = try #require(try Chore.find(2).fetchOne(db))
        var draft = Chore.Draft(stored)
        #expect(draft.id == 2 && draft.title == "Sharpen knives")
        draft.title = "Hone knives"
        try Chore.upsert { draft }.execute(db)
        #expect(try Chore.find(2).select(\.title).fetchOne(db) == "Hone knives")
    }
}

/// `upsert(_:)` of one draft, reached without naming it at the call.
private protocol UpsertingOneDraft {
    static func upsertOne(_ draft: KeysDraftsAndFiltersArticleTests.Chore.Draft) -> Insert<KeysDraftsAndFiltersArticleTests.Chore>
}

extension KeysDraftsAndFiltersArticleTests.Chore: UpsertingOneDraft {
    @available(*, deprecated, message: "calls the deprecated upsert(_:) on purpose")
    static func upsertOne(_ draft: Draft) -> Insert<Self> { upsert(draft) }
}
