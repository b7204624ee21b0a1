import BoutiqueQueries
import BoutiqueSQLite
import Testing

@Suite("Compound selects")
struct CompoundSelectTests {
    let db: Connection
    init() throws { db = try makeRemindersDatabase() }

    @Test func unionRemovesDuplicatesAndUnionAllKeepsThem() throws {
        let union = Reminder.where { $0.listID == 1 }.select { $0.listID }
            .union(RemindersList.select { $0.id })
        #expect(union.sql == #"SELECT "reminder"."listID" FROM "reminder" WHERE ("reminder"."listID" = ?) UNION SELECT "remindersList"."id" FROM "remindersList""#)
        #expect(union.bindings == [.integer(1)])
        #expect(try union.fetchAll(db).sorted() == [1, 2, 3])

        let all = Reminder.where { $0.listID == 1 }.select { $0.listID }
            .union(all: true, RemindersList.select { $0.id })
        #expect(all.sql.contains(" UNION ALL "))
        #expect(try all.fetchAll(db).sorted() == [1, 1, 1, 1, 2, 3])
    }

    @Test func intersectAndExcept() throws {
        let used = Reminder.select { $0.listID }
        let both = RemindersList.select { $0.id }.intersect(used)
        #expect(both.sql == #"SELECT "remindersList"."id" FROM "remindersList" INTERSECT SELECT "reminder"."listID" FROM "reminder""#)
        #expect(try both.fetchAll(db).sorted() == [1, 2])

        let unused = RemindersList.select { $0.id }.except(used)
        #expect(unused.sql.contains(" EXCEPT "))
        #expect(try unused.fetchAll(db) == [3])
    }

    @Test func tuplesChainAndLimitTheCombinedRows() throws {
        let names = Reminder.where { $0.id == 1 }.select { ($0.id, $0.title) }
            .union(RemindersList.where { $0.id == 2 }.select { ($0.id, $0.name) })
            .union(Values(9, "Values"))
            .limit(2, offset: 1)
        #expect(names.sql == #"SELECT "reminder"."id", "reminder"."title" FROM "reminder" WHERE ("reminder"."id" = ?) UNION SELECT "remindersList"."id", "remindersList"."name" FROM "remindersList" WHERE ("remindersList"."id" = ?) UNION SELECT ?, ? LIMIT ? OFFSET ?"#)
        #expect(names.bindings == [.integer(1), .integer(2), .integer(9), .text("Values"), .integer(2), .integer(1)])
        let rows = try names.fetchAll(db)
        #expect(rows.map(\.0) == [2, 9])
        #expect(rows.map(\.1) == ["Work", "Values"])

        let skipped = Values(1).union(Values(2)).union(Values(3)).offset(1)
        #expect(skipped.sql == "SELECT ? UNION SELECT ? UNION SELECT ? LIMIT -1 OFFSET ?")
        #expect(try skipped.fetchAll(db) == [2, 3])
    }

    @Test func valuesBindEveryValue() throws {
        let row = Values(1, "Hello", true)
        #expect(row.sql == "SELECT ?, ?, ?")
        #expect(row.bindings == [.integer(1), .text("Hello"), .integer(1)])
        let fetched = try #require(try row.fetchOne(db))
        #expect(fetched.0 == 1 && fetched.1 == "Hello" && fetched.2 == true)
    }
}
