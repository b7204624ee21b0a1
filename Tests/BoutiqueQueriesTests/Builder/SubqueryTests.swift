import BoutiqueQueries
import BoutiqueSQLite
import Testing

@Suite("Subqueries")
struct SubqueryTests {
    let db: Connection
    init() throws { db = try makeRemindersDatabase() }

    @Test func selectIsAScalarSubqueryInSelectAndWhere() throws {
        let counts = RemindersList.order { $0.id }.select { list in
            (list.name, Reminder.where { $0.listID == list.id }.count())
        }
        #expect(counts.sql == #"SELECT "remindersList"."name", (SELECT count(*) FROM (SELECT "reminder"."id", "reminder"."title", "reminder"."isDone", "reminder"."priority", "reminder"."listID" FROM "reminder" WHERE ("reminder"."listID" = "remindersList"."id"))) FROM "remindersList" ORDER BY "remindersList"."id""#)
        let rows = try counts.fetchAll(db)
        #expect(rows.map(\.0) == ["Home", "Work", "Empty"])
        #expect(rows.map(\.1) == [3, 2, 0])

        let top = Reminder.where { $0.priority == Reminder.select { $0.priority.max() } }.select { $0.title }
        #expect(top.sql == #"SELECT "reminder"."title" FROM "reminder" WHERE ("reminder"."priority" IS (SELECT max("reminder"."priority") FROM "reminder"))"#)
        #expect(try top.fetchAll(db) == ["Email boss"])
    }

    @Test func existsOnASelectAndOnATable() throws {
        let used = RemindersList.where { list in Reminder.where { $0.listID == list.id }.exists() }.select { $0.name }
        #expect(used.sql == #"SELECT "remindersList"."name" FROM "remindersList" WHERE (EXISTS (SELECT "reminder"."id", "reminder"."title", "reminder"."isDone", "reminder"."priority", "reminder"."listID" FROM "reminder" WHERE ("reminder"."listID" = "remindersList"."id")))"#)
        #expect(try used.fetchAll(db) == ["Home", "Work"])

        let unused = RemindersList.where { list in !Reminder.where { $0.listID == list.id }.exists() }.select { $0.name }
        #expect(try unused.fetchAll(db) == ["Empty"])

        let any = RemindersList.where { _ in Reminder.exists() }.count()
        #expect(try any.fetchOne(db) == 3)
    }

    @Test func inAndNotInASubquery() throws {
        let open = Reminder.where { !$0.isDone }.select { $0.listID }
        let withOpen = RemindersList.where { $0.id.in(open) }.select { $0.name }
        #expect(withOpen.sql == #"SELECT "remindersList"."name" FROM "remindersList" WHERE ("remindersList"."id" IN (SELECT "reminder"."listID" FROM "reminder" WHERE (NOT "reminder"."isDone")))"#)
        #expect(try withOpen.fetchAll(db) == ["Home", "Work"])

        let withoutOpen = RemindersList.where { $0.id.notIn(open) }.select { $0.name }
        #expect(withoutOpen.sql.contains(#""remindersList"."id" NOT IN (SELECT"#))
        #expect(try withoutOpen.fetchAll(db) == ["Empty"])

        let notListed = Reminder.where { $0.id.notIn([1, 2, 3]) }.select { $0.id }
        #expect(notListed.sql.hasSuffix(#"WHERE ("reminder"."id" NOT IN (?, ?, ?))"#))
        #expect(try notListed.fetchAll(db) == [4, 5])
        #expect(try Reminder.where { $0.id.notIn([Int]()) }.count().fetchOne(db) == 5)
    }

    @Test func offsetWithoutLimit() throws {
        let query = Reminder.order { $0.id }.offset(3).select { $0.id }
        #expect(query.sql == #"SELECT "reminder"."id" FROM "reminder" ORDER BY "reminder"."id" LIMIT -1 OFFSET ?"#)
        #expect(query.bindings == [.integer(3)])
        #expect(try query.fetchAll(db) == [4, 5])
        #expect(try Reminder.offset(4).fetchAll(db).count == 1)
    }
}
