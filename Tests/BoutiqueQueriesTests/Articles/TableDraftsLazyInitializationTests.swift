import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// The "Lazy initialization" listings of StructuredQueries' "Table drafts" article, in its spelling:
/// `@Column(lazyInitializable: true)` makes a `let` column optional in the `Draft`, so a draft leaves
/// it out and the database fills it in. Each test shows the SQL and the rows.
@Suite("Article: table drafts, lazy initialization")
struct TableDraftsLazyInitializationTests {
    @Table("users")
    struct User: Equatable {
        let id: UUID
        var name = ""
        @Column(lazyInitializable: true)
        let createdAt: Date
        @Column(lazyInitializable: true)
        let updatedAt: Date
    }

    @Table("remindersLists")
    struct RemindersList: Identifiable, Equatable {
        let id: Int
        var title = ""
    }

    @Table("reminders")
    struct Reminder: Equatable {
        let id: Int
        var name = ""
        @Column(lazyInitializable: true)
        var remindersListID: RemindersList.ID
    }

    /// A column that stays required in the draft, beside one that the database fills in.
    @Table("events")
    struct Event: Equatable {
        let id: Int
        var title: String
        @Column(as: Date.ISO8601Representation.self, lazyInitializable: true)
        let startsAt: Date
    }

    static func database() throws -> Connection {
        let db = try Connection(path: ":memory:")
        // NOT NULL ON CONFLICT REPLACE turns the NULL a draft writes into the column's default.
        try db.execute(#"""
            CREATE TABLE "users" (
                "id" TEXT PRIMARY KEY NOT NULL, "name" TEXT NOT NULL DEFAULT '',
                "createdAt" REAL NOT NULL ON CONFLICT REPLACE DEFAULT 1000,
                "updatedAt" REAL NOT NULL ON CONFLICT REPLACE DEFAULT 2000
            );
            CREATE TABLE "remindersLists" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '');
            CREATE TABLE "reminders" (
                "id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL DEFAULT '', "remindersListID" INTEGER
            );
            CREATE TABLE "events" (
                "id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL,
                "startsAt" TEXT NOT NULL ON CONFLICT REPLACE DEFAULT '2001-01-01T00:00:00.000Z'
            );
            """#)
        return db
    }

    @Test func aDraftLeavesOutItsLazyColumns() throws {
        let db = try Self.database()
        let draft = User.Draft(name: "Blob")
        #expect(draft.createdAt == nil && draft.updatedAt == nil)
        let insert = User.insert { draft }
        #expect(insert.sql == #"INSERT INTO "users" ("id", "name", "createdAt", "updatedAt") VALUES (?, ?, ?, ?)"#)
        try insert.execute(db)
        let user = try #require(try User.all.fetchOne(db))
        #expect(user.id == draft.id && user.name == "Blob")
        #expect(user.createdAt == Date(timeIntervalSince1970: 1000))
        #expect(user.updatedAt == Date(timeIntervalSince1970: 2000))
    }

    @Test func aDraftCanStillSetItsLazyColumns() throws {
        let db = try Self.database()
        let created = Date(timeIntervalSince1970: 5)
        try User.insert { User.Draft(name: "Blob Jr.", createdAt: created) }.execute(db)
        let user = try #require(try User.all.fetchOne(db))
        #expect(user.createdAt == created)
        #expect(user.updatedAt == Date(timeIntervalSince1970: 2000))

        // A stored row made a draft keeps its values.
        let copy = User.Draft(user)
        #expect(copy.createdAt == created && copy.updatedAt == user.updatedAt)
        let updated = try User.upsert { copy }.returning(\.self).fetchAll(db)
        #expect(updated == [user])
    }

    @Test func aForeignKeyAppliedLater() throws {
        let db = try Self.database()
        var child = Reminder.Draft(name: "Buy milk")
        #expect(child.remindersListID == nil)
        let listID = try #require(try RemindersList.insert { RemindersList.Draft(title: "Home") }.returning(\.id).fetchOne(db))
        child.remindersListID = listID
        let inserted = try Reminder.insert { child }.returning(\.self).fetchAll(db)
        #expect(inserted == [Reminder(id: 1, name: "Buy milk", remindersListID: listID)])
    }

    @Test func aLazyColumnWithARepresentation() throws {
        let db = try Self.database()
        let insert = Event.insert { Event.Draft(title: "Launch") }
        #expect(insert.sql == #"INSERT INTO "events" ("id", "title", "startsAt") VALUES (?, ?, ?)"#)
        try insert.execute(db)
        let event = try #require(try Event.all.fetchOne(db))
        #expect(event.startsAt == Date(timeIntervalSinceReferenceDate: 0))
        #expect(try Event.select(\.startsAt).fetchAll(db) == [Date(timeIntervalSinceReferenceDate: 0)])
    }
}
