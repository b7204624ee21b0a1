import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// Triggers as StructuredQueries' article spells them: an update trigger limited to some columns with
/// its columns in the first trailing closure, and text appended with `+=` in its body.
@Suite("Triggers, as the StructuredQueries article writes them")
struct TriggersArticleTests {
    let db: Connection
    init() throws { db = try makeRemindersDatabase() }

    @Test func anUpdateOfAColumnAppendsToAnotherRowsText() throws {
        let trigger = Reminder.createTemporaryTrigger(
            "mark_list",
            after: .update { $0.title } forEachRow: { _, new in
                RemindersList.where { $0.id.eq(new.listID) }.update { $0.name += " (edited)" }
            } when: { old, new in
                old.title.neq(new.title)
            }
        )
        #expect(trigger.query.sql == #"CREATE TEMPORARY TRIGGER "mark_list" AFTER UPDATE OF "title" ON "reminder" FOR EACH ROW WHEN ("old"."title" <> "new"."title") BEGIN UPDATE "remindersList" SET "name" = ("name" || ' (edited)') WHERE ("remindersList"."id" = "new"."listID"); END"#)
        try trigger.execute(db)
        try Reminder.where { $0.id.eq(1) }.update { $0.title = "Groceries and bread" }.execute(db)
        try Reminder.where { $0.id.eq(3) }.update { $0.isDone = true }.execute(db)
        #expect(try RemindersList.order(by: \.id).select(\.name).fetchAll(db) == ["Home (edited)", "Work", "Empty"])
    }

    @Test func aBodyThatIsOneUpdateAppendingText() throws {
        let trigger = RemindersList.createTemporaryTrigger(
            "exclaim",
            after: .insert { _ in
                Reminder.update { $0.title += "!" }
            }
        )
        try trigger.execute(db)
        try RemindersList.insert { RemindersList(id: 4, name: "Garden") }.execute(db)
        #expect(try Reminder.where { $0.id.eq(1) }.select(\.title).fetchOne(db) == "Groceries!")
    }
}
