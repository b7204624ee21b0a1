import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// `createTemporaryTrigger`, as StructuredQueries spells it: the SQL each trigger renders (one line,
/// values written in as literals, where StructuredQueries breaks lines) and what it does to the rows
/// when it fires.
@Suite("Temporary triggers")
struct TemporaryTriggerTests {
    let db: Connection
    init() throws { db = try makeRemindersDatabase() }

    @Test func afterInsertRunsItsStatementForEachNewRow() throws {
        // StructuredQueries: CREATE TEMPORARY TRIGGER "…" AFTER INSERT ON "remindersLists" FOR EACH ROW
        // BEGIN INSERT INTO "reminders" ("title", "remindersListID") VALUES ('Welcome', "new"."id"); END
        let trigger = RemindersList.createTemporaryTrigger(
            "welcome",
            after: .insert { new in
                Reminder.insert { ($0.title, $0.listID) } values: { ("Welcome", new.id) }
            }
        )
        #expect(trigger.sql == #"CREATE TEMPORARY TRIGGER "welcome" AFTER INSERT ON "remindersList" FOR EACH ROW BEGIN INSERT INTO "reminder" ("title", "listID") VALUES ('Welcome', "new"."id"); END"#)
        #expect(trigger.bindings.isEmpty)
        try trigger.execute(db)
        try RemindersList.insert { RemindersList.Draft(name: "Errands") }.execute(db)
        #expect(try Reminder.where { $0.listID == 4 }.select { ($0.title, $0.isDone) }.fetchAll(db).map { "\($0.0) \($0.1)" } == ["Welcome false"])
    }

    @Test func afterUpdateOfAColumnWithAWhenCondition() throws {
        // StructuredQueries: … AFTER UPDATE OF "isCompleted" ON "reminders" FOR EACH ROW
        // WHEN (("new"."isCompleted") AND (NOT ("old"."isCompleted"))) BEGIN UPDATE "reminders" SET "priority" = NULL
        // WHERE (("reminders"."id") = ("new"."id")); END
        let trigger = Reminder.createTemporaryTrigger(
            "clear_priority_when_done",
            after: .update(of: { $0.isDone }) { _, new in
                Reminder.update { $0.priority = nil }.where { $0.id.eq(new.id) }
            } when: { old, new in
                new.isDone.and(old.isDone.not())
            }
        )
        #expect(trigger.sql == #"CREATE TEMPORARY TRIGGER "clear_priority_when_done" AFTER UPDATE OF "isDone" ON "reminder" FOR EACH ROW WHEN ("new"."isDone" AND (NOT "old"."isDone")) BEGIN UPDATE "reminder" SET "priority" = NULL WHERE ("reminder"."id" = "new"."id"); END"#)
        try trigger.execute(db)
        // Done now: fires. Already done: the condition does not hold. Title only: not an update of isDone.
        try Reminder.update { $0.isDone = true }.where { $0.id == 1 || $0.id == 5 }.execute(db)
        try Reminder.update { $0.title = "Email the boss" }.where { $0.id == 3 }.execute(db)
        #expect(try Reminder.order(by: \.id).select { ($0.id, $0.priority) }.fetchAll(db).map { "\($0.0):\($0.1.map(String.init) ?? "nil")" }
            == ["1:nil", "2:nil", "3:3", "4:1", "5:2"])
    }

    @Test func afterDeleteReadsTheOldRow() throws {
        let trigger = RemindersList.createTemporaryTrigger(
            "delete_reminders_of_list",
            after: .delete { old in
                Reminder.where { $0.listID.eq(old.id) }.delete()
            }
        )
        #expect(trigger.sql == #"CREATE TEMPORARY TRIGGER "delete_reminders_of_list" AFTER DELETE ON "remindersList" FOR EACH ROW BEGIN DELETE FROM "reminder" WHERE ("reminder"."listID" = "old"."id"); END"#)
        try trigger.execute(db)
        try RemindersList.where { $0.id == 1 }.delete().execute(db)
        #expect(try Reminder.order(by: \.id).select(\.id).fetchAll(db) == [3, 4])
    }

    @Test func beforeDeleteWithSeveralStatements() throws {
        // StructuredQueries renders each statement on its own line, each ended by `;`.
        let trigger = RemindersList.createTemporaryTrigger(
            "before_list_delete",
            before: .delete { old in
                Reminder.where { $0.listID.eq(old.id) && $0.isDone }.delete()
                Reminder.update { $0.listID = 1 }.where { $0.listID.eq(old.id) }
                Values(1)
            } when: { old in
                old.id.neq(1)
            }
        )
        #expect(trigger.sql == #"CREATE TEMPORARY TRIGGER "before_list_delete" BEFORE DELETE ON "remindersList" FOR EACH ROW WHEN ("old"."id" <> 1) BEGIN DELETE FROM "reminder" WHERE (("reminder"."listID" = "old"."id") AND "reminder"."isDone"); UPDATE "reminder" SET "listID" = 1 WHERE ("reminder"."listID" = "old"."id"); SELECT 1; END"#)
        try trigger.execute(db)
        try Reminder.update { $0.isDone = true }.where { $0.id == 4 }.execute(db)
        try RemindersList.where { $0.id == 2 }.delete().execute(db)
        #expect(try Reminder.order(by: \.id).select { ($0.id, $0.listID) }.fetchAll(db).map { "\($0.0):\($0.1)" } == ["1:1", "2:1", "3:1", "5:1"])
    }

    @Test func touchUpdatesTheRowThatFiredByRowid() throws {
        // StructuredQueries: … FOR EACH ROW BEGIN UPDATE "remindersLists" SET "position" =
        // ("remindersLists"."position") + (1) WHERE (("remindersLists"."rowid") = ("new"."rowid")); END
        let trigger = Reminder.createTemporaryTrigger(
            "bump_priority",
            after: .update(of: { $0.title }) {
                $0.priority = $0.priority + 1
            }
        )
        #expect(trigger.sql == #"CREATE TEMPORARY TRIGGER "bump_priority" AFTER UPDATE OF "title" ON "reminder" FOR EACH ROW BEGIN UPDATE "reminder" SET "priority" = ("priority" + 1) WHERE ("reminder"."rowid" = "new"."rowid"); END"#)
        try trigger.execute(db)
        try Reminder.update { $0.title = $0.title.upper() }.where { $0.listID == 1 }.execute(db)
        #expect(try Reminder.order(by: \.id).select { ($0.title, $0.priority) }.fetchAll(db).map { "\($0.0) \($0.1.map(String.init) ?? "nil")" }
            == ["GROCERIES 3", "HAIRCUT nil", "Email boss 3", "Plan offsite 1", "LAUNDRY 3"])

        let onInsert = Reminder.createTemporaryTrigger("done_on_insert", after: .insert(touch: { $0.isDone = true }))
        #expect(onInsert.sql == #"CREATE TEMPORARY TRIGGER "done_on_insert" AFTER INSERT ON "reminder" FOR EACH ROW BEGIN UPDATE "reminder" SET "isDone" = 1 WHERE ("reminder"."rowid" = "new"."rowid"); END"#)
        try onInsert.execute(db)
        try Reminder.insert { Reminder.Draft(title: "New", listID: 2) }.execute(db)
        #expect(try Reminder.where { $0.title == "New" }.select(\.isDone).fetchOne(db) == true)
    }

    @Test func valuesInTheBodyAreWrittenInAsEscapedLiterals() throws {
        let hostile = "it's'); DROP TABLE reminder; --"
        let trigger = RemindersList.createTemporaryTrigger(
            "hostile",
            after: .insert { new in
                Reminder.insert { ($0.title, $0.listID, $0.priority) } values: { (hostile, new.id, Int?(-1)) }
            } when: { new in
                new.name.neq("?") && new.name.neq("x' OR '1'='1")
            }
        )
        #expect(trigger.sql == #"CREATE TEMPORARY TRIGGER "hostile" AFTER INSERT ON "remindersList" FOR EACH ROW WHEN (("new"."name" <> '?') AND ("new"."name" <> 'x'' OR ''1''=''1')) BEGIN INSERT INTO "reminder" ("title", "listID", "priority") VALUES ('it''s''); DROP TABLE reminder; --', "new"."id", (-1)); END"#)
        #expect(trigger.bindings.isEmpty)
        try trigger.execute(db)
        try RemindersList.insert { RemindersList.Draft(name: "Hostile") }.execute(db)
        try RemindersList.insert { RemindersList.Draft(name: "?") }.execute(db)
        #expect(try Reminder.where { $0.listID >= 4 }.select { ($0.title, $0.listID, $0.priority) }.fetchAll(db).map { "\($0.0)|\($0.1)|\($0.2 ?? 0)" }
            == ["\(hostile)|4|-1"])
        #expect(try Reminder.all.fetchCount(db) == 6)
    }

    @Test func aDefaultNameSaysWhenWhatAndWhere() throws {
        let trigger = RemindersList.createTemporaryTrigger(after: .insert { _ in Values(1) })
        #expect(trigger.name.hasPrefix("after_insert_on_remindersList@BoutiqueQueriesTests/TemporaryTriggerTests.swift:"))
        let placed = Reminder.createTemporaryTrigger(
            before: .update { _, _ in Values(1) }, fileID: "App/Triggers.swift", line: 12, column: 30)
        #expect(placed.sql == #"CREATE TEMPORARY TRIGGER "before_update_on_reminder@App/Triggers.swift:12:30" BEFORE UPDATE ON "reminder" FOR EACH ROW BEGIN SELECT 1; END"#)
        #expect(placed.drop().sql == #"DROP TRIGGER "before_update_on_reminder@App/Triggers.swift:12:30""#)
        // The same call at two places makes two triggers.
        let triggers = [1, 2].map { _ in RemindersList.createTemporaryTrigger(after: .delete { _ in Values(1) }) }
        #expect(triggers[0].name == triggers[1].name)
        try trigger.execute(db)
        try placed.execute(db)
        #expect(try db.fetchValue("SELECT count(*) FROM temp.sqlite_master WHERE type = 'trigger'") == .integer(2))
    }

    @Test func ifNotExistsAndDrop() throws {
        let trigger = Reminder.createTemporaryTrigger("t", ifNotExists: true, after: .delete { _ in Values(1) })
        #expect(trigger.sql == #"CREATE TEMPORARY TRIGGER IF NOT EXISTS "t" AFTER DELETE ON "reminder" FOR EACH ROW BEGIN SELECT 1; END"#)
        try trigger.execute(db)
        try trigger.execute(db)
        #expect(throws: BoutiqueError.self) { try Reminder.createTemporaryTrigger("t", after: .delete { _ in Values(1) }).execute(db) }
        #expect(trigger.drop(ifExists: true).sql == #"DROP TRIGGER IF EXISTS "t""#)
        try trigger.drop().execute(db)
        try trigger.drop(ifExists: true).execute(db)
        #expect(throws: BoutiqueError.self) { try trigger.drop().execute(db) }
        #expect(try db.fetchValue("SELECT count(*) FROM temp.sqlite_master WHERE type = 'trigger'") == .integer(0))
    }

    @Test func aTriggerOnATableThatDoesNotExistIsAClearError() throws {
        let trigger = Reminder.createTemporaryTrigger("t", after: .delete { _ in Values(1) })
        let empty = try Connection(path: ":memory:")
        #expect {
            try trigger.execute(empty)
        } throws: { error in
            guard let error = error as? BoutiqueError, case .sql(_, let message) = error else { return false }
            return String(describing: message).contains("no such table")
        }
    }

    @Test func aSQLStatementInTheBody() throws {
        let trigger = Reminder.createTemporaryTrigger(
            "raw",
            after: .delete { old in
                #sql("INSERT INTO \(RemindersList.self) (\(identifier: "name")) VALUES ('gone ' || \(old.title))")
            }
        )
        #expect(trigger.sql == #"CREATE TEMPORARY TRIGGER "raw" AFTER DELETE ON "reminder" FOR EACH ROW BEGIN INSERT INTO "remindersList" ("name") VALUES ('gone ' || "old"."title"); END"#)
        try trigger.execute(db)
        try Reminder.where { $0.id == 2 }.delete().execute(db)
        #expect(try RemindersList.where { $0.id == 4 }.select(\.name).fetchOne(db) == "gone Haircut")
    }
}
