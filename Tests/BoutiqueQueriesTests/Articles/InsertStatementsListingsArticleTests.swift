import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// The listings of StructuredQueries' "Inserts" article in its spelling, over tags and reminders with
/// an enum priority: rows and arrays of rows, drafts, chosen columns, a loop, an insert from a select,
/// `returning`, a draft made from a row, `upsert`, and both conflict clauses (the second reading the
/// row that failed to insert). Each test shows the SQL and the rows.
@Suite("Article: insert statements, listing by listing")
struct InsertStatementsListingsArticleTests {
    enum Priority: Int, QueryBindable {
        case low = 1, medium, high
    }

    @Table("tags")
    struct Tag: Equatable {
        let id: Int
        var title = ""
    }

    @Table("remindersLists")
    struct RemindersList: Equatable {
        let id: Int
        var title = ""
    }

    @Table("reminders")
    struct Reminder: Equatable {
        let id: Int
        var isCompleted = false
        var title = ""
        var isFlagged = false
        var priority: Priority?
        var remindersListID: Int
    }

    static func database() throws -> Connection {
        let db = try Connection(path: ":memory:")
        try db.execute("""
            CREATE TABLE "tags" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '');
            CREATE TABLE "remindersLists" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '');
            CREATE TABLE "reminders" ("id" INTEGER PRIMARY KEY, "isCompleted" INTEGER NOT NULL DEFAULT 0,
                "title" TEXT NOT NULL DEFAULT '' UNIQUE, "isFlagged" INTEGER NOT NULL DEFAULT 0, "priority" INTEGER,
                "remindersListID" INTEGER NOT NULL DEFAULT 1);
            INSERT INTO "remindersLists" VALUES (1, 'Home'), (2, 'Work'), (3, 'Errands');
            """)
        return db
    }

    @Test func aRowAndAnArrayOfRows() throws {
        let db = try Self.database()
        let tag = Tag(id: 1, title: "car")
        let one = Tag.insert { tag }
        #expect(one.sql == #"INSERT INTO "tags" ("id", "title") VALUES (?, ?)"#)
        try one.execute(db)

        let tags = [
            Tag(id: 2, title: "kids"),
            Tag(id: 3, title: "someday"),
            Tag(id: 4, title: "optional"),
        ]
        let many = Tag.insert { tags }
        #expect(many.sql == #"INSERT INTO "tags" ("id", "title") VALUES (?, ?), (?, ?), (?, ?)"#)
        try many.execute(db)
        #expect(try Tag.select(\.title).fetchAll(db) == ["car", "kids", "someday", "optional"])
    }

    @Test func aDraftAndItsReturnedID() throws {
        let db = try Self.database()
        let draft = Reminder.Draft(
            title: "Get groceries",
            isFlagged: true,
            priority: .high,
            remindersListID: 1
        )
        let insert = Reminder.insert { draft }
        try insert.execute(db)
        let id = try Reminder
            .insert { Reminder.Draft(title: "Take a walk", remindersListID: 2) }
            .returning(\.id)
            .fetchOne(db)
        #expect(id == 2)
        #expect(try Reminder.find(1).fetchOne(db)
            == Reminder(id: 1, title: "Get groceries", isFlagged: true, priority: .high, remindersListID: 1))
    }

    @Test func chosenColumnsWithOneAndSeveralRows() throws {
        let db = try Self.database()
        let one = Reminder.insert {
            ($0.remindersListID, $0.title, $0.priority, $0.isFlagged)
        } values: {
            (1, "Get groceries", .high, true)
        }
        #expect(one.sql == #"INSERT INTO "reminders" ("remindersListID", "title", "priority", "isFlagged") VALUES (?, ?, ?, ?)"#)
        try one.execute(db)

        let several = Reminder.insert {
            ($0.remindersListID, $0.title, $0.priority, $0.isFlagged)
        } values: {
            (1, "Buy milk", .high, true)
            (3, "Take a walk", .medium, false)
            (2, "Get haircut", nil, true)
        }
        try several.execute(db)
        let rows = try Reminder.order(by: \.id).fetchAll(db)
        #expect(rows.map(\.priority) == [.high, .high, .medium, nil])
        #expect(rows.map(\.remindersListID) == [1, 1, 3, 2])
        #expect(rows.map(\.isFlagged) == [true, true, false, true])
    }

    @Test func aLoopOfTitlesAndAnInsertFromASelect() throws {
        let db = try Self.database()
        let loop = Tag.insert {
            $0.title
        } values: {
            for title in ["home", "work", "school"] {
                title
            }
        }
        #expect(loop.sql == #"INSERT INTO "tags" ("title") VALUES (?), (?), (?)"#)
        try loop.execute(db)

        let copied = Tag.insert {
            $0.title
        } select: {
            RemindersList.select { $0.title.lower() }
        }
        #expect(copied.sql == #"INSERT INTO "tags" ("title") SELECT lower("remindersLists"."title") FROM "remindersLists""#)
        try copied.execute(db)
        #expect(try Tag.select(\.title).fetchAll(db) == ["home", "work", "school", "home", "work", "errands"])
    }

    @Test func returningTheInsertedRow() throws {
        let db = try Self.database()
        let inserted = Reminder.insert {
            ($0.remindersListID, $0.title)
        } values: {
            (1, "Get groceries")
        }
        .returning(\.self)
        #expect(try inserted.fetchOne(db) == Reminder(id: 1, title: "Get groceries", remindersListID: 1))
    }

    @Test func draftsForAFormAndAnUpsert() throws {
        let db = try Self.database()
        let remindersList = RemindersList(id: 2, title: "Work")
        var draft = Reminder.Draft(remindersListID: remindersList.id)
        #expect(draft.id == nil && draft.title == "")
        draft.title = "Cash check"
        let id = try Reminder.insert { draft }.returning(\.id).fetchOne(db)

        let insertedID = try #require(id)
        let reminder = try #require(try Reminder.find(insertedID).fetchOne(db))
        var edited = Reminder.Draft(reminder)
        #expect(edited.id == reminder.id)
        edited.isCompleted = true
        let upsert = Reminder.upsert { edited }
        #expect(upsert.sql.hasPrefix(#"INSERT INTO "reminders" ("id", "isCompleted", "title", "isFlagged", "priority", "remindersListID") VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT"#))
        #expect(upsert.sql.contains(#""isCompleted" = "excluded"."isCompleted""#) || upsert.sql.contains(#""isCompleted" = excluded."isCompleted""#))
        try upsert.execute(db)
        #expect(try Reminder.all.fetchAll(db) == [Reminder(id: 1, isCompleted: true, title: "Cash check", remindersListID: 2)])
    }

    @Test func conflictClausesAppendingAndReadingTheExcludedRow() throws {
        let db = try Self.database()
        try db.execute(#"INSERT INTO "reminders" ("id", "isCompleted", "priority", "remindersListID", "title") VALUES (1, 1, 1, 1, 'Get groceries')"#)
        let anyConflict = Reminder.insert {
            ($0.isCompleted, $0.priority, $0.title)
        } values: {
            (false, .high, "Get groceries")
        } onConflictDoUpdate: {
            $0.title += " (Copy)"
        }
        #expect(anyConflict.sql.hasPrefix(#"INSERT INTO "reminders" ("isCompleted", "priority", "title") VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET "title" = "#))

        let byTitle = Reminder.insert {
            ($0.isCompleted, $0.priority, $0.title)
        } values: {
            (false, .high, "Get groceries")
        } onConflict: {
            $0.title
        } doUpdate: {
            $0.title += " (Copy)"
        }
        #expect(byTitle.sql.contains(#" ON CONFLICT ("title") DO UPDATE SET "title" = "#))
        try byTitle.execute(db)
        #expect(try Reminder.select(\.title).fetchAll(db) == ["Get groceries (Copy)"])

        try db.execute(#"UPDATE "reminders" SET "title" = 'Get groceries'"#)
        let fromExcluded = Reminder.insert {
            ($0.isCompleted, $0.priority, $0.title)
        } values: {
            (false, .high, "Get groceries")
        } onConflict: {
            $0.title
        } doUpdate: {
            $0.isCompleted = $1.isCompleted
            $0.priority = $1.priority
        }
        #expect(fromExcluded.sql.hasSuffix(#"ON CONFLICT ("title") DO UPDATE SET "isCompleted" = "excluded"."isCompleted", "priority" = "excluded"."priority""#)
            || fromExcluded.sql.hasSuffix(#"ON CONFLICT ("title") DO UPDATE SET "isCompleted" = excluded."isCompleted", "priority" = excluded."priority""#))
        try fromExcluded.execute(db)
        #expect(try Reminder.all.fetchAll(db) == [Reminder(id: 1, isCompleted: false, title: "Get groceries", priority: .high, remindersListID: 1)])
    }
}
