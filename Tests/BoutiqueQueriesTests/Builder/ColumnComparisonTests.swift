import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// `==` and `!=` between two columns of one type: the SQL of the general comparisons, `=` and `<>`,
/// or `IS` and `IS NOT` between optional columns, whichever overload the type checker takes.
@Suite("Comparisons between columns")
struct ColumnComparisonTests {
    let db: Connection
    init() throws { db = try makeRemindersDatabase() }

    @Test func equalColumnsOfTwoTablesJoinOnEquals() throws {
        let query = Reminder.join(RemindersList.all) { $0.listID == $1.id }
            .order { reminder, _ in reminder.id }
            .select { reminder, list in (reminder.title, list.name) }
        #expect(query.sql == #"SELECT "reminder"."title", "remindersList"."name" FROM "reminder" JOIN "remindersList" ON ("reminder"."listID" = "remindersList"."id") ORDER BY "reminder"."id""#)
        let rows = try query.fetchAll(db)
        #expect(rows.map { "\($0.0)/\($0.1)" } == ["Groceries/Home", "Haircut/Home", "Email boss/Work", "Plan offsite/Work", "Laundry/Home"])
    }

    @Test func differentColumnsOfTwoTablesJoinOnNotEquals() throws {
        let query = Reminder.join(RemindersList.all) { $0.listID != $1.id }
            .where { reminder, _ in reminder.id == 1 }
            .order { _, list in list.id }
            .select { _, list in list.name }
        #expect(query.sql == #"SELECT "remindersList"."name" FROM "reminder" JOIN "remindersList" ON ("reminder"."listID" <> "remindersList"."id") WHERE ("reminder"."id" = ?) ORDER BY "remindersList"."id""#)
        #expect(try query.fetchAll(db) == ["Work", "Empty"])
    }

    @Test func optionalColumnsCompareWithIsSoThatNilEqualsNil() throws {
        // Reminder 2 has no priority: `IS` keeps it, SQL's `=` would not.
        let same = Reminder.where { $0.priority == $0.priority }.order { $0.id }.select(\.id)
        #expect(same.sql == #"SELECT "reminder"."id" FROM "reminder" WHERE ("reminder"."priority" IS "reminder"."priority") ORDER BY "reminder"."id""#)
        #expect(try same.fetchAll(db) == [1, 2, 3, 4, 5])

        let different = Reminder.where { $0.priority != $0.priority }.select(\.id)
        #expect(different.sql == #"SELECT "reminder"."id" FROM "reminder" WHERE ("reminder"."priority" IS NOT "reminder"."priority")"#)
        #expect(try different.fetchAll(db).isEmpty)
    }
}
