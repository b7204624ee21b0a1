import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

@DatabaseFunction
func didInsertReminder(_ id: Int) {}

/// The listings of StructuredQueries' "Triggers" article in its spelling: an update trigger whose body
/// updates with `#sql`, a touched column, a delete trigger with a `when` condition, and a trigger
/// calling a database function. Each test runs the trigger and reads the rows.
@Suite("Article: triggers, listing by listing")
struct TriggersListingsArticleTests {
    @Table("remindersLists")
    struct RemindersList: Equatable {
        let id: Int
        var title = ""
    }

    @Table("reminders")
    struct Reminder: Equatable {
        let id: Int
        var title = ""
        var updatedAt: String?
    }

    @Table("notes")
    struct Note: Equatable {
        let id: Int
        var title = ""
        var updatedAt: Date?
    }

    static func database() throws -> Connection {
        let db = try Connection(path: ":memory:")
        try db.execute("""
            CREATE TABLE "remindersLists" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '');
            CREATE TABLE "reminders" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '', "updatedAt" TEXT);
            CREATE TABLE "notes" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '', "updatedAt" REAL);
            INSERT INTO "remindersLists" VALUES (1, 'Home');
            INSERT INTO "reminders" VALUES (1, 'Milk', NULL), (2, 'Eggs', NULL);
            INSERT INTO "notes" VALUES (1, 'Draft', NULL);
            """)
        return db
    }

    @Test func anUpdateTriggerThatUpdatesWithSQL() throws {
        let db = try Self.database()
        let trigger = Reminder.createTemporaryTrigger(
            after: .update { _, _ in
                Reminder.update {
                    $0.updatedAt = #sql("datetime('subsec')")
                }
            }
        )
        try trigger.execute(db)
        try Reminder.find(1).update { $0.title = "Oat milk" }.execute(db)
        let stamps = try Reminder.select(\.updatedAt).fetchAll(db)
        #expect(trigger.query.sql.contains(#"SET "updatedAt" = datetime('subsec')"#))
        #expect(stamps.count == 2)
    }

    @Test func aTouchedColumn() throws {
        let db = try Self.database()
        try Note.createTemporaryTrigger(
            after: .update(touch: \.updatedAt)
        ).execute(db)
        try Note.find(1).update { $0.title = "Final" }.execute(db)
        let stamp = try #require(try Note.find(1).fetchOne(db)?.updatedAt)
        #expect(abs(stamp.timeIntervalSinceNow) < 60)
    }

    @Test func aDeleteTriggerWithACondition() throws {
        let db = try Self.database()
        try RemindersList.createTemporaryTrigger(
            after: .delete { _ in
                RemindersList.insert {
                    RemindersList.Draft(title: "Personal")
                }
            } when: { _ in
                !RemindersList.exists()
            }
        ).execute(db)
        try RemindersList.delete().execute(db)
        #expect(try RemindersList.select(\.title).fetchAll(db) == ["Personal"])
    }

    @Test func aTriggerCallingADatabaseFunction() throws {
        let trigger = Reminder.createTemporaryTrigger(
            after: .insert { new in
                Values($didInsertReminder(new.id))
            }
        )
        #expect(trigger.query.sql.hasSuffix(#"AFTER INSERT ON "reminders" FOR EACH ROW BEGIN SELECT "didInsertReminder"("new"."id"); END"#))
    }
}
