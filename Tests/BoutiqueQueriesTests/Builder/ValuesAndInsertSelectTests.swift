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
}
