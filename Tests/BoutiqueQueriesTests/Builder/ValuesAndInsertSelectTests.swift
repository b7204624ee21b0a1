import BoutiqueQueries
import BoutiqueSQLite
import Testing

@Suite("Insert … select")
struct ValuesAndInsertSelectTests {
    let db: Connection
    init() throws { db = try makeRemindersDatabase() }

    @Test func insertsTheRowsASelectReturns() throws {
        let copy = RemindersList.insert { ($0.id, $0.name) } select: {
            Reminder.where { $0.isDone }.select { ($0.id + 10, $0.title) }
        }
        #expect(copy.sql == #"INSERT INTO "remindersList" ("id", "name") SELECT ("reminder"."id" + ?), "reminder"."title" FROM "reminder" WHERE "reminder"."isDone""#)
        #expect(copy.bindings == [.integer(10)])
        try copy.execute(db)
        #expect(try RemindersList.where { $0.id > 10 }.order(by: \.id).select(\.name).fetchAll(db) == ["Haircut", "Laundry"])
    }

    @Test func insertsAValuesRowIntoOneColumn() throws {
        let one = RemindersList.insert { $0.name } select: { Values("Errands") }
        #expect(one.sql == #"INSERT INTO "remindersList" ("name") SELECT ?"#)
        #expect(one.bindings == [.text("Errands")])
        try one.execute(db)
        #expect(try RemindersList.where { $0.id == 4 }.select(\.name).fetchOne(db) == "Errands")
    }

    /// Selected rows whose key exists update the existing row instead: the select is read from a
    /// subquery with a `WHERE`, so that SQLite does not take `ON CONFLICT` for a join's `ON`.
    @Test func conflictingSelectedRowsUpdateTheExistingRows() throws {
        let copy = RemindersList.insert { ($0.id, $0.name) } select: {
            Reminder.where { $0.listID == 1 }.select { ($0.id, $0.title) }
        } onConflictDoUpdate: {
            $0.name = $0.name.concat("+")
        }
        #expect(copy.sql == #"INSERT INTO "remindersList" ("id", "name") SELECT * FROM (SELECT "reminder"."id", "reminder"."title" FROM "reminder" WHERE ("reminder"."listID" = ?)) WHERE 1 ON CONFLICT DO UPDATE SET "name" = ("name" || ?)"#)
        #expect(copy.bindings == [.integer(1), .text("+")])
        try copy.execute(db)
        // Reminders 1 and 2 hit lists 1 and 2, which gain a "+"; reminder 5 makes list 5.
        #expect(try RemindersList.order(by: \.id).select { ($0.id, $0.name) }.fetchAll(db).map { "\($0.0):\($0.1)" }
            == ["1:Home+", "2:Work+", "3:Empty", "5:Laundry"])
    }

    @Test func conflictingSelectedRowsAreSkippedAndTheWrittenOnesReturned() throws {
        let copy = RemindersList.insert { ($0.id, $0.name) } select: {
            Reminder.select { ($0.id, $0.title) }
        }
        .onConflictDoNothing(\.id)
        .returning { $0.name }
        #expect(copy.sql.hasSuffix(#"FROM "reminder") WHERE 1 ON CONFLICT ("id") DO NOTHING RETURNING "name""#))
        // Lists 1, 2 and 3 exist: only reminders 4 and 5 make lists.
        #expect(try copy.fetchAll(db).sorted() == ["Laundry", "Plan offsite"])
        #expect(try RemindersList.all.fetchCount(db) == 5)

        let again = RemindersList.insert { ($0.id, $0.name) } select: { Reminder.select { ($0.id, $0.title) } }.onConflictDoNothing()
        #expect(again.sql.hasSuffix("WHERE 1 ON CONFLICT DO NOTHING"))
        try again.execute(db)
        #expect(try RemindersList.all.fetchCount(db) == 5)

        // Without a conflict clause the select is written as it is, and a conflict fails the statement.
        let plain = RemindersList.insert { ($0.id, $0.name) } select: { Reminder.select { ($0.id, $0.title) } }
        #expect(plain.sql == #"INSERT INTO "remindersList" ("id", "name") SELECT "reminder"."id", "reminder"."title" FROM "reminder""#)
        #expect(throws: (any Error).self) { try plain.execute(db) }
    }
}
