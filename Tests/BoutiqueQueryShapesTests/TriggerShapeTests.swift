import BoutiqueDB
import BoutiqueQueryShapes
import Testing

/// The trigger and view shapes, created on every connection by `prepareDatabase` and run: writes
/// through the view, counts kept by triggers, a reopened reminder and a refilled list.
@Suite @MainActor struct TriggerShapeTests {
    private func open() async throws -> BoutiqueDB {
        let db = try await BoutiqueDB.open(
            url: BoutiqueDB.inMemoryURL(), migrations: RemindersMigrations.plan, options: TriggerShapes.options())
        try await db.write { conn in try RemindersMigrations.seed(conn) }
        return db
    }

    @Test func aViewWrittenThroughItsTriggersAndReadOnAReader() async throws {
        let db = try await open()
        #expect(TriggerShapes.reminderWithList().sql == #"CREATE TEMPORARY VIEW "reminderWithList" ("reminderID", "reminderTitle", "listTitle") AS SELECT "reminder"."id", "reminder"."title", "remindersList"."title" FROM "reminder" JOIN "remindersList" ON ("reminder"."listID" = "remindersList"."id")"#)
        try await db.write { conn in
            try ReminderWithList.insert { ReminderWithList.Draft(reminderTitle: "Standup", listTitle: "Work") }.execute(conn)
            try ReminderWithList.where { $0.reminderID == 4 }.delete().execute(conn)
        }
        let rows = try await db.read { conn in try ReminderWithList.order { $0.reminderID }.fetchAll(conn) }
        #expect(rows.map { "\($0.listTitle)/\($0.reminderTitle)" } == ["Home/Groceries", "Home/Haircut", "Work/Email boss", "Work/Standup"])
    }

    @Test func triggersKeepCountsReopenAndRefill() async throws {
        let db = try await open()
        #expect(TriggerShapes.keepAList().sql.hasSuffix(#"AFTER DELETE ON "remindersList" FOR EACH ROW WHEN (NOT (EXISTS (SELECT "remindersList"."id", "remindersList"."title", "remindersList"."color" FROM "remindersList"))) BEGIN INSERT INTO "remindersList" ("title") VALUES ('Personal'); END"#))
        try await db.write { conn in
            try ReminderTag.insert { ReminderTag(id: 5, reminderID: 4, tagID: 3) }.execute(conn)
            try ReminderTag.where { $0.id == 3 }.delete().execute(conn)
            try Reminder.where { $0.id == 2 }.update { $0.title = "Haircut at 5" }.execute(conn)
            try Reminder.where { $0.id == 1 }.update { $0.dueDate = nil }.execute(conn)
            try ReminderTag.delete().execute(conn)
            try Reminder.delete().execute(conn)
            try RemindersList.delete().execute(conn)
        }
        let (tags, lists) = try await db.read { conn in
            (try Tag.order { $0.id }.fetchAll(conn), try RemindersList.all.fetchAll(conn))
        }
        #expect(tags.map(\.uses) == [2, 1, 1])
        #expect(lists.map(\.title) == ["Personal"])
    }

    @Test func aRetitledDoneReminderIsReopenedAndAScheduledOneEstimated() async throws {
        let db = try await open()
        let done = try await db.write { conn in
            try Reminder.where { $0.id == 2 }.update { $0.title = "Haircut at 5" }.execute(conn)
            try Reminder.where { $0.id == 4 }.update { $0.estimatedMinutes = nil }.execute(conn)
            return try Reminder.order { $0.id }.select { ($0.isDone, $0.estimatedMinutes) }.fetchAll(conn)
        }
        #expect(done.map(\.0) == [false, false, false, false])
        #expect(done.map(\.1) == [30, nil, 5, 15])
    }
}
