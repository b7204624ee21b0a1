import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// The listings of StructuredQueries' "Primary keyed tables" and "Table drafts" articles in their
/// spelling, over books keyed by ISBN and reminders keyed by `id`: a key other than `id`, drafts
/// inserted and returned, `find` with `update` and `delete`, and a row updated, upserted and deleted
/// by its key. Each test shows the SQL and the rows.
@Suite("Article: primary keyed tables and table drafts")
struct PrimaryKeyedTablesArticleTests {
    @Table("books")
    struct Book: Equatable {
        @Column(primaryKey: true)
        let isbn: String
        var title: String
    }

    @Table("remindersLists")
    struct RemindersList: Equatable {
        let id: Int
        var title = ""
    }

    @Table("reminders")
    struct Reminder: Equatable {
        let id: Int
        var title = ""
        var isCompleted = false
        var remindersListID = 1
    }

    static func database() throws -> Connection {
        let db = try Connection(path: ":memory:")
        try db.execute("""
            CREATE TABLE "books" ("isbn" TEXT PRIMARY KEY NOT NULL, "title" TEXT NOT NULL);
            CREATE TABLE "remindersLists" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '');
            CREATE TABLE "reminders" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '',
                "isCompleted" INTEGER NOT NULL DEFAULT 0, "remindersListID" INTEGER NOT NULL DEFAULT 1);
            INSERT INTO "remindersLists" VALUES (1, 'Home'), (2, 'Work');
            INSERT INTO "reminders" VALUES (40, 'Mow the lawn', 0, 1), (42, 'Pay rent', 0, 2);
            """)
        return db
    }

    @Test func aKeyOtherThanID() throws {
        let db = try Self.database()
        try Book.insert { Book(isbn: "978-0141439518", title: "Emma") }.execute(db)
        let found = Book.find("978-0141439518")
        #expect(found.sql.hasSuffix(#"WHERE ("books"."isbn" = ?)"#) || found.sql.hasSuffix(#"WHERE ("books"."isbn" IN (?))"#))
        #expect(try found.fetchOne(db)?.title == "Emma")
    }

    @Test func aDraftInsertedReturnedAsItsIDAndAsTheRow() throws {
        let db = try Self.database()
        let draft = Reminder.Draft(title: "Get groceries")
        let insert = Reminder.insert {
            Reminder.Draft(title: "Get groceries")
        }
        #expect(insert.sql == #"INSERT INTO "reminders" ("id", "title", "isCompleted", "remindersListID") VALUES (NULL, ?, ?, ?)"#
            || insert.sql == #"INSERT INTO "reminders" ("id", "title", "isCompleted", "remindersListID") VALUES (?, ?, ?, ?)"#)
        try insert.execute(db)
        #expect(try Reminder.insert { draft }.returning(\.id).fetchOne(db) == 44)

        let id = Reminder
            .insert { Reminder.Draft(title: "Get groceries") }
            .returning(\.id)
        #expect(try id.fetchOne(db) == 45)
        let row = Reminder
            .insert { Reminder.Draft(title: "Get groceries") }
            .returning(\.self)
        #expect(try row.fetchOne(db) == Reminder(id: 46, title: "Get groceries"))
    }

    @Test func findThenUpdateAndDelete() throws {
        let db = try Self.database()
        let found = Reminder.find(42)
        #expect(try found.fetchOne(db)?.title == "Pay rent")

        let toggle = Reminder.find(42).update {
            $0.isCompleted.toggle()
        }
        #expect(toggle.sql.hasPrefix(#"UPDATE "reminders" SET "isCompleted" = (NOT "isCompleted") WHERE"#))
        try toggle.execute(db)
        #expect(try Reminder.find(42).fetchOne(db)?.isCompleted == true)

        let delete = Reminder.find(42).delete()
        #expect(delete.sql.hasPrefix(#"DELETE FROM "reminders" WHERE"#))
        try delete.execute(db)
        #expect(try Reminder.select(\.id).fetchAll(db) == [40])
    }

    @Test func aRowUpdatedUpsertedAndDeletedByItsKey() throws {
        let db = try Self.database()
        let reminder = Reminder(
            id: 40,
            title: "Get groceries",
            isCompleted: false
        )
        let update = Reminder.update(reminder)
        #expect(update.sql == #"UPDATE "reminders" SET "title" = ?, "isCompleted" = ?, "remindersListID" = ? WHERE "reminders"."id" = ?"#)
        try update.execute(db)
        #expect(try Reminder.find(40).fetchOne(db) == reminder)

        let draft = Reminder.Draft(
            id: 1,
            title: "Get groceries",
            isCompleted: false
        )
        let upsert = Reminder.upsert(draft)
        #expect(upsert.sql.hasPrefix(#"INSERT INTO "reminders" ("id", "title", "isCompleted", "remindersListID") VALUES (?, ?, ?, ?) ON CONFLICT ("id") DO UPDATE SET "#))
        try upsert.execute(db)
        try Reminder.upsert(Reminder.Draft(id: 1, title: "Get more groceries")).execute(db)
        #expect(try Reminder.find(1).fetchOne(db) == Reminder(id: 1, title: "Get more groceries"))

        let delete = Reminder.delete(reminder)
        #expect(delete.sql == #"DELETE FROM "reminders" WHERE "reminders"."id" = ?"#)
        try delete.execute(db)
        #expect(try Reminder.select(\.id).fetchAll(db) == [1, 42])
    }

    @Test func draftsForANewAndAnExistingRecord() throws {
        let db = try Self.database()
        let remindersList = try #require(try RemindersList.find(2).fetchOne(db))
        let newDraft = Reminder.Draft(remindersListID: remindersList.id)
        #expect(newDraft.id == nil && newDraft.remindersListID == 2 && newDraft.title.isEmpty)

        let reminder = try #require(try Reminder.find(42).fetchOne(db))
        var existing = Reminder.Draft(reminder)
        #expect(existing.id == 42 && existing.title == "Pay rent")
        existing.title = "Pay the rent"
        try Reminder.upsert { existing }.execute(db)
        #expect(try Reminder.find(42).select(\.title).fetchOne(db) == "Pay the rent")
        try Reminder.insert { newDraft }.execute(db)
        #expect(try Reminder.where { $0.remindersListID == 2 }.count().fetchOne(db) == 2)
    }
}
