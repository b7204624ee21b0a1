import BoutiqueQueries
import BoutiqueSQLite
import Testing

@Suite("Joins")
struct JoinTests {
    let db: Connection
    init() throws { db = try makeRemindersDatabase() }

    @Test func innerJoinPairsRows() throws {
        let query = Reminder.where { $0.isDone }
            .join(RemindersList.all) { $0.listID == $1.id }
            .order { r, _ in r.id }
        #expect(query.sql == #"SELECT "reminder"."id", "reminder"."title", "reminder"."isDone", "reminder"."priority", "reminder"."listID", "remindersList"."id", "remindersList"."name" FROM "reminder" JOIN "remindersList" ON ("reminder"."listID" = "remindersList"."id") WHERE "reminder"."isDone" ORDER BY "reminder"."id""#)
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0.title) == ["Haircut", "Laundry"])
        #expect(rows.map(\.1.name) == ["Home", "Home"])
    }

    @Test func joinSelectsAcrossTablesAndFiltersTheOtherSide() throws {
        let query = Reminder.join(RemindersList.where { $0.name == "Work" }) { $0.listID == $1.id }
            .order { r, _ in r.title }
            .select { r, l in (r.title, l.name) }
        #expect(query.sql == #"SELECT "reminder"."title", "remindersList"."name" FROM "reminder" JOIN "remindersList" ON ("reminder"."listID" = "remindersList"."id") WHERE ("remindersList"."name" = ?) ORDER BY "reminder"."title""#)
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0) == ["Email boss", "Plan offsite"])
        #expect(rows.map(\.1) == ["Work", "Work"])
    }

    @Test func leftJoinGivesNilForUnmatchedRows() throws {
        let query = RemindersList.all
            .leftJoin(Reminder.where { !$0.isDone }) { $0.id == $1.listID }
            .order { l, r in (l.id, r.id) }
        #expect(query.sql.contains(#"LEFT JOIN "reminder" ON ("remindersList"."id" = "reminder"."listID") AND (NOT "reminder"."isDone")"#))
        #expect(!query.sql.contains("WHERE"))
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0.name) == ["Home", "Work", "Work", "Empty"])
        #expect(rows.map { $0.1?.id } == [1, 3, 4, nil])
    }

    @Test func groupedJoinCountsPerList() throws {
        let query = RemindersList.all
            .leftJoin(Reminder.all) { $0.id == $1.listID }
            .group { l, _ in l.id }
            .order { l, _ in l.id }
            .select { l, r in (l.name, r.id.count()) }
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0) == ["Home", "Work", "Empty"])
        #expect(rows.map(\.1) == [3, 2, 0])
    }
}
