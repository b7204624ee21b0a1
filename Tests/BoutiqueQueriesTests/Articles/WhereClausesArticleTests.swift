import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// The listings of StructuredQueries' "Where clauses", "Aggregate functions", "Updates" and "Deletes"
/// articles in their spelling, over a few reminders: a key-path filter chained into an update and a
/// delete, the aggregates, updates (with `#sql` in an assignment, a filter and `returning`, and a whole
/// row) and deletes. Each test shows the SQL and the rows.
@Suite("Article: where clauses, aggregates, updates and deletes, listing by listing")
struct WhereClausesArticleTests {
    @Table("reminders")
    struct Reminder: Equatable {
        let id: Int
        var title = ""
        var isCompleted = false
        var isFlagged = false
        var priority: Int?
    }

    static func database() throws -> Connection {
        let db = try Connection(path: ":memory:")
        try db.execute("""
            CREATE TABLE "reminders" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '',
                "isCompleted" INTEGER NOT NULL DEFAULT 0, "isFlagged" INTEGER NOT NULL DEFAULT 0, "priority" INTEGER);
            INSERT INTO "reminders" VALUES
                (1, 'Pack lunch', 1, 0, 1), (2, 'Fix bike', 0, 1, 3), (3, 'Call Gran', 1, 1, NULL),
                (42, 'Water plants', 0, 0, 2);
            """)
        return db
    }

    @Test func aKeyPathFilterSelectingUpdatingAndDeleting() throws {
        let db = try Self.database()
        let completed = Reminder.where(\.isCompleted)
        #expect(completed.sql.hasSuffix(#"WHERE "reminders"."isCompleted""#))
        #expect(try completed.fetchAll(db).map(\.id) == [1, 3])

        let reopen = Reminder
            .where(\.isCompleted)
            .update {
                $0.isCompleted = false
            }
        #expect(reopen.sql == #"UPDATE "reminders" SET "isCompleted" = ? WHERE "reminders"."isCompleted""#)
        try reopen.execute(db)
        #expect(try completed.fetchAll(db).isEmpty)

        try db.execute(#"UPDATE "reminders" SET "isCompleted" = 1 WHERE "id" = 2"#)
        let purge = Reminder
            .where(\.isCompleted)
            .delete()
        #expect(purge.sql == #"DELETE FROM "reminders" WHERE "reminders"."isCompleted""#)
        try purge.execute(db)
        #expect(try Reminder.select(\.id).fetchAll(db) == [1, 3, 42])
    }

    @Test func averageFilteredCountAndOrderedConcatenation() throws {
        let db = try Self.database()
        let average = Reminder
            .select { $0.priority.avg() }
        #expect(average.sql == #"SELECT avg("reminders"."priority") FROM "reminders""#)
        #expect(try average.fetchOne(db) == 2.0)

        let completedCount = Reminder.select {
            $0.id.count(filter: $0.isCompleted)
        }
        #expect(completedCount.sql == #"SELECT count("reminders"."id") FILTER (WHERE "reminders"."isCompleted") FROM "reminders""#)
        #expect(try completedCount.fetchOne(db) == 2)

        let titles = Reminder.select {
            $0.title.groupConcat(
                ", ",
                order: $0.title
            )
        }
        #expect(titles.sql == #"SELECT group_concat("reminders"."title", ? ORDER BY "reminders"."title") FROM "reminders""#)
        // SQLite reads an ORDER BY inside an aggregate's arguments from 3.44 on; the system's is older.
    }

    @Test func updatesOfEveryRowWithSQLAndOfOneRowReturningIt() throws {
        let db = try Self.database()
        let reset = Reminder.update {
            $0.isCompleted = false
        }
        #expect(reset.sql == #"UPDATE "reminders" SET "isCompleted" = ?"#)

        let bumped = Reminder.update {
            $0.isFlagged.toggle()
            $0.title += " (Updated)"
            $0.priority = #sql("min(\($0.priority + 1), 3)")
        }
        #expect(bumped.sql.hasSuffix(#""priority" = min(("priority" + ?), 3)"#))
        try bumped.execute(db)
        let rows = try Reminder.order(by: \.id).fetchAll(db)
        #expect(rows.map(\.priority) == [2, 3, nil, 3])
        #expect(rows.map(\.isFlagged) == [true, false, false, true])
        #expect(rows.map(\.title).allSatisfy { $0.hasSuffix(" (Updated)") })

        let one = Reminder.update {
            $0.isCompleted = true
        }
        .where {
            $0.id == 42
        }
        #expect(one.sql == #"UPDATE "reminders" SET "isCompleted" = ? WHERE ("reminders"."id" = ?)"#)

        let returned = Reminder.update {
            $0.isCompleted = true
        }
        .where {
            $0.id == 42
        }
        .returning(\.self)
        #expect(try returned.fetchAll(db) == [Reminder(id: 42, title: "Water plants (Updated)", isCompleted: true, isFlagged: true, priority: 3)])
    }

    @Test func aFetchedRowUpdatedAndDeleted() throws {
        let db = try Self.database()
        var reminder = try #require(try Reminder.find(42).fetchOne(db))
        reminder.isCompleted = true
        let update = Reminder.update(reminder)
        #expect(update.sql.hasSuffix(#"WHERE "reminders"."id" = ?"#))
        try update.execute(db)
        #expect(try Reminder.find(42).fetchOne(db)?.isCompleted == true)

        let delete = Reminder.delete(reminder)
        #expect(delete.sql == #"DELETE FROM "reminders" WHERE "reminders"."id" = ?"#)
        try delete.execute(db)
        #expect(try Reminder.count().fetchOne(db) == 3)
    }

    @Test func deletesOfEveryRowAndOfOneReturningIt() throws {
        let db = try Self.database()
        let one = Reminder.delete()
            .where { $0.id == 42 }
            .returning(\.self)
        #expect(one.sql.hasPrefix(#"DELETE FROM "reminders" WHERE ("reminders"."id" = ?) RETURNING "#))
        #expect(try one.fetchAll(db) == [Reminder(id: 42, title: "Water plants", priority: 2)])
        let all = Reminder.delete()
        #expect(all.sql == #"DELETE FROM "reminders""#)
        try all.execute(db)
        #expect(try Reminder.count().fetchOne(db) == 0)
    }
}
