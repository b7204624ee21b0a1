import BoutiqueQueries
import BoutiqueSQLite
import Testing

@Suite("Outer joins")
struct OuterJoinTests {
    let db: Connection
    init() throws {
        db = try makeRemindersDatabase()
        // A reminder whose list does not exist, so that both sides have an unmatched row.
        try db.execute("PRAGMA foreign_keys = OFF; INSERT INTO reminder (id, title, listID) VALUES (6, 'Orphan', 9)")
    }

    @Test func rightJoinKeepsEveryRowOfTheOtherTable() throws {
        let query = Reminder.where { $0.isDone }.rightJoin(RemindersList.all) { $0.listID == $1.id }
            .order { $1.id }
            .select { ($0.title, $1.name) }
        #expect(query.sql == #"SELECT "reminder"."title", "remindersList"."name" FROM "reminder" RIGHT JOIN "remindersList" ON ("reminder"."listID" = "remindersList"."id") WHERE "reminder"."isDone" ORDER BY "remindersList"."id""#)
        #expect(try query.fetchAll(db).map(\.1) == ["Home", "Home"])

        let rows = try Reminder.rightJoin(RemindersList.all) { $0.listID == $1.id && $0.isDone }
            .order { ($1.id, $0.id) }
            .fetchAll(db)
        #expect(rows.map { $0.0?.title } == ["Haircut", "Laundry", nil, nil])
        #expect(rows.map(\.1.name) == ["Home", "Home", "Work", "Empty"])
    }

    @Test func fullJoinKeepsUnmatchedRowsOfBothSides() throws {
        let query = Reminder.fullJoin(RemindersList.all) { $0.listID == $1.id }
        #expect(query.sql.contains(#" FROM "reminder" FULL JOIN "remindersList" ON ("reminder"."listID" = "remindersList"."id")"#))
        let rows = try query.fetchAll(db)
        #expect(rows.count == 7)
        #expect(rows.filter { $0.1 == nil }.map { $0.0?.title } == ["Orphan"])
        #expect(rows.filter { $0.0 == nil }.map { $0.1?.name } == ["Empty"])
    }
}
