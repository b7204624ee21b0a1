import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// Views declared as `@Table` types, created with `createTemporaryView(as:)` and made writable with an
/// `INSTEAD OF` trigger, as StructuredQueries spells them; and the triggers that keep a date column
/// current. Each test shows the SQL and the rows.
@Suite("Temporary views")
struct TemporaryViewTests {
    @Table @Selection
    struct ReminderWithList: Equatable {
        @Column(primaryKey: true) let reminderID: Int
        let reminderTitle: String
        let listName: String
    }

    @Table @Selection
    struct CompletedReminder: Equatable {
        let reminderID: Int
        let title: String
    }

    @Table
    struct Event: Equatable {
        let id: Int
        var title: String
        var updatedAt: Date
        @Column(as: Date.ISO8601Representation.self) var stampedAt: Date?
    }

    let db: Connection
    init() throws { db = try makeRemindersDatabase() }

    static let reminderWithList = ReminderWithList.createTemporaryView(
        as: Reminder.join(RemindersList.all) { $0.listID.eq($1.id) }
            .select { ReminderWithList.Columns(reminderID: $0.id, reminderTitle: $0.title, listName: $1.name) }
    )

    @Test func aViewOfAJoinReadsLikeATable() throws {
        // StructuredQueries: CREATE TEMPORARY VIEW "reminderWithLists" ("reminderID", "reminderTitle",
        // "remindersListTitle") AS SELECT "reminders"."id" AS "reminderID", … FROM "reminders"
        // JOIN "remindersLists" ON ("reminders"."remindersListID") = ("remindersLists"."id")
        let view = Self.reminderWithList
        #expect(view.sql == #"CREATE TEMPORARY VIEW "reminderWithList" ("reminderID", "reminderTitle", "listName") AS SELECT "reminder"."id", "reminder"."title", "remindersList"."name" FROM "reminder" JOIN "remindersList" ON ("reminder"."listID" = "remindersList"."id")"#)
        try view.execute(db)
        #expect(try ReminderWithList.find(3).fetchOne(db) == ReminderWithList(reminderID: 3, reminderTitle: "Email boss", listName: "Work"))
        let firstThree = ReminderWithList.order { ($0.listName, $0.reminderTitle) }.limit(3)
        #expect(firstThree.sql == #"SELECT "reminderWithList"."reminderID", "reminderWithList"."reminderTitle", "reminderWithList"."listName" FROM "reminderWithList" ORDER BY "reminderWithList"."listName", "reminderWithList"."reminderTitle" LIMIT ?"#)
        #expect(try firstThree.fetchAll(db).map(\.reminderTitle) == ["Groceries", "Haircut", "Laundry"])
    }

    @Test func anInsteadOfTriggerMakesTheViewWritable() throws {
        try Self.reminderWithList.execute(db)
        // StructuredQueries: … INSTEAD OF INSERT ON "reminderWithLists" FOR EACH ROW BEGIN INSERT INTO
        // "reminders" ("title", "remindersListID") VALUES ("new"."reminderTitle", (SELECT "remindersLists"."id"
        // FROM "remindersLists" WHERE (("remindersLists"."title") = ("new"."remindersListTitle")))); END
        let trigger = ReminderWithList.createTemporaryTrigger(
            "insert_reminder_with_list",
            insteadOf: .insert { new in
                Reminder.insert { ($0.title, $0.listID) } values: {
                    (new.reminderTitle, RemindersList.select(\.id).where { $0.name.eq(new.listName) })
                }
            }
        )
        #expect(trigger.sql == #"CREATE TEMPORARY TRIGGER "insert_reminder_with_list" INSTEAD OF INSERT ON "reminderWithList" FOR EACH ROW BEGIN INSERT INTO "reminder" ("title", "listID") VALUES ("new"."reminderTitle", (SELECT "remindersList"."id" FROM "remindersList" WHERE ("remindersList"."name" = "new"."listName"))); END"#)
        try trigger.execute(db)

        let insert = ReminderWithList.insert { ReminderWithList.Draft(reminderTitle: "Morning sync", listName: "Work") }
        #expect(insert.sql == #"INSERT INTO "reminderWithList" ("reminderID", "reminderTitle", "listName") VALUES (?, ?, ?)"#)
        try insert.execute(db)
        #expect(try ReminderWithList.find(6).fetchOne(db) == ReminderWithList(reminderID: 6, reminderTitle: "Morning sync", listName: "Work"))

        // A list that does not exist leaves the reminder without one, which its table refuses.
        #expect {
            try ReminderWithList.insert { ReminderWithList.Draft(reminderTitle: "Lost", listName: "Unknown") }.execute(db)
        } throws: { error in
            guard let error = error as? BoutiqueError, case .sql(_, let message) = error else { return false }
            return String(describing: message).contains("NOT NULL constraint failed: reminder.listID")
        }
        #expect(try Reminder.all.fetchCount(db) == 6)
    }

    @Test func valuesTheSelectBindsAreWrittenIntoTheView() throws {
        let view = CompletedReminder.createTemporaryView(
            ifNotExists: true,
            as: Reminder.where { $0.isDone && $0.title != "it's" }
                .select { CompletedReminder.Columns(reminderID: $0.id, title: $0.title) }
        )
        #expect(view.sql == #"CREATE TEMPORARY VIEW IF NOT EXISTS "completedReminder" ("reminderID", "title") AS SELECT "reminder"."id", "reminder"."title" FROM "reminder" WHERE ("reminder"."isDone" AND ("reminder"."title" <> 'it''s'))"#)
        #expect(view.bindings.isEmpty)
        try view.execute(db)
        try view.execute(db)
        #expect(try CompletedReminder.all.fetchAll(db) == [CompletedReminder(reminderID: 2, title: "Haircut"), CompletedReminder(reminderID: 5, title: "Laundry")])
        #expect(view.drop().sql == #"DROP VIEW "completedReminder""#)
        try view.drop().execute(db)
        #expect(throws: BoutiqueError.self) { try CompletedReminder.all.fetchAll(db) }
    }

    @Test func aTouchSetsADateColumnToNowAsTheColumnStoresIt() throws {
        try db.execute("CREATE TABLE event (id INTEGER PRIMARY KEY, title TEXT NOT NULL, updatedAt REAL NOT NULL, stampedAt TEXT)")
        // StructuredQueries writes `datetime('subsec')`, its text form of a date; a `Date` column here
        // stores seconds since 1970, and an ISO-8601 column its own text.
        let updated = Event.createTemporaryTrigger("touch_updated", after: .update(of: { $0.title }, touch: \.updatedAt))
        #expect(updated.sql == #"CREATE TEMPORARY TRIGGER "touch_updated" AFTER UPDATE OF "title" ON "event" FOR EACH ROW BEGIN UPDATE "event" SET "updatedAt" = ((julianday('now') - 2440587.5) * 86400.0) WHERE ("event"."rowid" = "new"."rowid"); END"#)
        let stamped = Event.createTemporaryTrigger("touch_stamped", after: .insert(touch: \.stampedAt))
        #expect(stamped.sql == #"CREATE TEMPORARY TRIGGER "touch_stamped" AFTER INSERT ON "event" FOR EACH ROW BEGIN UPDATE "event" SET "stampedAt" = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE ("event"."rowid" = "new"."rowid"); END"#)
        try updated.execute(db)
        try stamped.execute(db)

        let long = Date(timeIntervalSince1970: 1_000)
        try Event.insert { Event(id: 1, title: "Launch", updatedAt: long, stampedAt: nil) }.execute(db)
        let inserted = try #require(try Event.find(1).fetchOne(db))
        #expect(inserted.updatedAt == long)
        #expect(abs(try #require(inserted.stampedAt).timeIntervalSinceNow) < 60)

        try Event.update { $0.title = "Launch day" }.where { $0.id == 1 }.execute(db)
        let touched = try #require(try Event.find(1).fetchOne(db))
        #expect(abs(touched.updatedAt.timeIntervalSinceNow) < 60)

        let given = Event.createTemporaryTrigger("given", after: .update(touch: \.updatedAt, date: #sql("1000.0", as: Date.self)))
        #expect(given.sql == #"CREATE TEMPORARY TRIGGER "given" AFTER UPDATE ON "event" FOR EACH ROW BEGIN UPDATE "event" SET "updatedAt" = 1000.0 WHERE ("event"."rowid" = "new"."rowid"); END"#)
        try updated.drop().execute(db)
        try given.execute(db)
        try Event.update { $0.title = "Later" }.where { $0.id == 1 }.execute(db)
        #expect(try Event.find(1).fetchOne(db)?.updatedAt == long)
    }

    @Test func aTableWithoutRowidIsTouchedByItsPrimaryKey() throws {
        try MacroModels.RichNote.createTable().execute(db)
        let trigger = MacroModels.RichNote.createTemporaryTrigger("touch", after: .update(of: { $0.title }, touch: \.updatedAt))
        #expect(trigger.sql == #"CREATE TEMPORARY TRIGGER "touch" AFTER UPDATE OF "title" ON "note" FOR EACH ROW BEGIN UPDATE "note" SET "updatedAt" = ((julianday('now') - 2440587.5) * 86400.0) WHERE ("note"."id" = "new"."id"); END"#)
        try trigger.execute(db)
        let id = UUID()
        let long = Date(timeIntervalSince1970: 1_000)
        try MacroModels.RichNote.insert {
            MacroModels.RichNote(id: id, title: "a", body: "", createdAt: long, updatedAt: long, rating: nil, titleLower: "")
        }.execute(db)
        try MacroModels.RichNote.update { $0.title = "b" }.execute(db)
        let note = try #require(try MacroModels.RichNote.find(id).fetchOne(db))
        #expect(abs(note.updatedAt.timeIntervalSinceNow) < 60)
    }
}
