import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// Private to the file, as the article declares its view's type.
@Table
private struct ReminderTitleWithList: Equatable {
    let reminderTitle: String
    let remindersListTitle: String
}

/// A view declared with `@Table` alone, as StructuredQueries' "Views" article writes it: `@Table`
/// generates `Columns`, which builds the view's rows in its select; the view is then queried like a
/// table, and an `INSTEAD OF` trigger makes it writable.
@Suite("Article: views")
struct ViewsArticleTests {
    @Table
    struct ReminderWithList: Equatable {
        let reminderTitle: String
        let remindersListTitle: String
    }

    let db: Connection
    init() throws { db = try makeRemindersDatabase() }

    static let view = ReminderWithList.createTemporaryView(
        as: Reminder
            .join(RemindersList.all) { $0.listID.eq($1.id) }
            .select {
                ReminderWithList.Columns(
                    reminderTitle: $0.title,
                    remindersListTitle: $1.name
                )
            }
    )

    @Test func theViewIsQueriedLikeATable() throws {
        // StructuredQueries: CREATE TEMPORARY VIEW "reminderWithLists" ("reminderTitle",
        // "remindersListTitle") AS SELECT "reminders"."title" AS "reminderTitle", … ; its default names
        // are plural, BoutiqueDB's the type's name.
        #expect(Self.view.sql == #"CREATE TEMPORARY VIEW "reminderWithList" ("reminderTitle", "remindersListTitle") AS SELECT "reminder"."title", "remindersList"."name" FROM "reminder" JOIN "remindersList" ON ("reminder"."listID" = "remindersList"."id")"#)
        try Self.view.execute(db)
        let query = ReminderWithList
            .order {
                ($0.remindersListTitle,
                 $0.reminderTitle)
            }
            .limit(3)
        #expect(query.sql == #"SELECT "reminderWithList"."reminderTitle", "reminderWithList"."remindersListTitle" FROM "reminderWithList" ORDER BY "reminderWithList"."remindersListTitle", "reminderWithList"."reminderTitle" LIMIT ?"#)
        #expect(try query.fetchAll(db) == [
            ReminderWithList(reminderTitle: "Groceries", remindersListTitle: "Home"),
            ReminderWithList(reminderTitle: "Haircut", remindersListTitle: "Home"),
            ReminderWithList(reminderTitle: "Laundry", remindersListTitle: "Home"),
        ])
    }

    @Test func columnsTakesExpressionsOfEachColumnsType() throws {
        // The initializer's parameters are expressions, so computed values fill a row as well.
        let select = Reminder.where { $0.id == 3 }.select {
            ReminderWithList.Columns(reminderTitle: $0.title.upper(), remindersListTitle: #sql("'Inbox'"))
        }
        #expect(select.sql == #"SELECT upper("reminder"."title"), 'Inbox' FROM "reminder" WHERE ("reminder"."id" = ?)"#)
        #expect(try select.fetchAll(db) == [ReminderWithList(reminderTitle: "EMAIL BOSS", remindersListTitle: "Inbox")])
    }

    @Test func anInsteadOfTriggerReroutesInsertsIntoTheView() throws {
        try Self.view.execute(db)
        try ReminderWithList.createTemporaryTrigger(
            insteadOf: .insert { new in
                Reminder.insert {
                    (
                        $0.title,
                        $0.listID
                    )
                } values: {
                    (
                        new.reminderTitle,
                        RemindersList
                            .select(\.id)
                            .where { $0.name.eq(new.remindersListTitle) }
                    )
                }
            }
        ).execute(db)
        try ReminderWithList.insert {
            ReminderWithList(
                reminderTitle: "Morning sync",
                remindersListTitle: "Work"
            )
        }.execute(db)
        #expect(try Reminder.where { $0.title == "Morning sync" }.select(\.listID).fetchAll(db) == [2])
        #expect(try ReminderWithList.where { $0.reminderTitle == "Morning sync" }.fetchAll(db)
            == [ReminderWithList(reminderTitle: "Morning sync", remindersListTitle: "Work")])
    }
    @Test func aViewWithoutATriggerRefusesInserts() throws {
        try Self.view.execute(db)
        let insert = ReminderWithList.insert {
            ReminderWithList(
                reminderTitle: "Morning sync",
                remindersListTitle: "Work"
            )
        }
        #expect(insert.sql == #"INSERT INTO "reminderWithList" ("reminderTitle", "remindersListTitle") VALUES (?, ?)"#)
        #expect { try insert.execute(db) } throws: { "\($0)".contains("cannot modify reminderWithList because it is a view") }
        #expect(try Reminder.all.fetchCount(db) == 5)
    }
    @Test func aPrivateViewTypeAtFileLevel() throws {
        let view = ReminderTitleWithList.createTemporaryView(
            ifNotExists: true,
            as: Reminder
                .join(RemindersList.all) { $0.listID.eq($1.id) }
                .select {
                    ReminderTitleWithList.Columns(
                        reminderTitle: $0.title,
                        remindersListTitle: $1.name
                    )
                }
        )
        #expect(view.sql.hasPrefix(#"CREATE TEMPORARY VIEW IF NOT EXISTS "reminderTitleWithList" ("reminderTitle", "remindersListTitle") AS SELECT"#))
        try view.execute(db)
        try view.execute(db)
        let work = ReminderTitleWithList.where { $0.remindersListTitle.eq("Work") }.order(by: \.reminderTitle)
        #expect(try work.fetchAll(db) == [
            ReminderTitleWithList(reminderTitle: "Email boss", remindersListTitle: "Work"),
            ReminderTitleWithList(reminderTitle: "Plan offsite", remindersListTitle: "Work"),
        ])
    }
}
