import BoutiqueQueries
import BoutiqueSQLite
import Testing

@Suite("Expressions and operators")
struct ExpressionTests {
    let db: Connection
    init() throws { db = try makeRemindersDatabase() }

    func ids(_ query: Select<Reminder.TableColumns, Reminder>) throws -> [Int] {
        try query.order { $0.id }.fetchAll(db).map(\.id)
    }

    @Test func comparisons() throws {
        #expect(try ids(Reminder.where { $0.id != 2 }) == [1, 3, 4, 5])
        #expect(try ids(Reminder.where { $0.id < 2 }) == [1])
        #expect(try ids(Reminder.where { $0.id <= 2 }) == [1, 2])
        #expect(try ids(Reminder.where { $0.id > 4 }) == [5])
        #expect(try ids(Reminder.where { $0.id >= 4 }) == [4, 5])
        #expect(try ids(Reminder.where { $0.listID == $0.id }) == [1])
        #expect(Reminder.where { $0.id < $0.listID }.sql.hasSuffix(#"WHERE ("reminder"."id" < "reminder"."listID")"#))
    }

    @Test func nullChecks() throws {
        let isNull = Reminder.where { $0.priority.is(nil) }
        #expect(isNull.sql.hasSuffix(#"WHERE ("reminder"."priority" IS ?)"#))
        #expect(isNull.bindings == [.null])
        #expect(try ids(isNull) == [2])
        #expect(try ids(Reminder.where { $0.priority.isNot(nil) }) == [1, 3, 4, 5])
        #expect(try ids(Reminder.where { $0.priority == nil }) == [2])
        #expect(try ids(Reminder.where { $0.priority != nil }) == [1, 3, 4, 5])
        #expect(Reminder.where { $0.priority == 2 }.sql.hasSuffix(#"WHERE ("reminder"."priority" = ?)"#))
        #expect(try ids(Reminder.where { $0.priority == 2 }) == [1, 5])
    }

    @Test func logicalOperators() throws {
        let query = Reminder.where { r in (r.listID == 1 && !r.isDone) || r.priority == 3 }
        #expect(query.sql.hasSuffix(#"WHERE ((("reminder"."listID" = ?) AND (NOT "reminder"."isDone")) OR ("reminder"."priority" = ?))"#))
        #expect(try ids(query) == [1, 3])
        #expect(try ids(Reminder.where { $0.isDone && $0.listID == 1 }) == [2, 5])
        #expect(try ids(Reminder.where { $0.isDone || $0.id == 1 }) == [1, 2, 5])
    }

    @Test func arithmetic() throws {
        let query = Reminder.where { $0.id == 3 }.select { ($0.id + 1, $0.id - $0.listID, $0.id * 2) }
        #expect(query.sql.hasPrefix(#"SELECT ("reminder"."id" + ?), ("reminder"."id" - "reminder"."listID"), ("reminder"."id" * ?) FROM"#))
        let row = try #require(try query.fetchOne(db))
        #expect(row.0 == 4 && row.1 == 1 && row.2 == 6)
        let division = try #require(try Reminder.find(3).select { ($0.id / 2, $0.id % 2) }.fetchOne(db))
        #expect(division.0 == 1 && division.1 == 1)
        #expect(try Reminder.find(3).select { -$0.id }.fetchOne(db) == -3)
    }

    @Test func membershipAndRanges() throws {
        let inList = Reminder.where { $0.id.in([2, 4]) }
        #expect(inList.sql.hasSuffix(#"WHERE ("reminder"."id" IN (?, ?))"#))
        #expect(try ids(inList) == [2, 4])
        #expect(try ids(Reminder.where { [1, 5].contains($0.id) }) == [1, 5])
        #expect(try ids(Reminder.where { $0.id.in([Int]()) }) == [])
        let between = Reminder.where { $0.id.between(2, and: 4) }
        #expect(between.sql.hasSuffix(#"WHERE ("reminder"."id" BETWEEN ? AND ?)"#))
        #expect(try ids(between) == [2, 3, 4])
        let subquery = Reminder.where { $0.listID.in(RemindersList.where { $0.name == "Work" }.select { $0.id }) }
        #expect(subquery.sql.hasSuffix(#"WHERE ("reminder"."listID" IN (SELECT "remindersList"."id" FROM "remindersList" WHERE ("remindersList"."name" = ?)))"#))
        #expect(try ids(subquery) == [3, 4])
    }

    @Test func stringMatching() throws {
        #expect(try ids(Reminder.where { $0.title.like("%a%") }) == [2, 3, 4, 5])
        #expect(try ids(Reminder.where { $0.title.like("h%") }) == [2])
        #expect(try ids(Reminder.where { $0.title.like("50!%", escape: "!") }) == [])
        #expect(Reminder.where { $0.title.glob("*a*") }.sql.hasSuffix(#"WHERE ("reminder"."title" GLOB ?)"#))
        #expect(try ids(Reminder.where { $0.title.glob("[GH]*") }) == [1, 2])
        // contains, hasPrefix and hasSuffix are LIKE patterns, as in StructuredQueries: ASCII case is
        // ignored, and `%` or `_` in the argument are wildcards.
        #expect(try ids(Reminder.where { $0.title.contains("ai") }) == [2, 3])
        #expect(try ids(Reminder.where { $0.title.contains("AI") }) == [2, 3])
        #expect(try ids(Reminder.where { $0.title.hasPrefix("Gro") }) == [1])
        #expect(try ids(Reminder.where { $0.title.hasPrefix("gro") }) == [1])
        #expect(try ids(Reminder.where { $0.title.hasSuffix("dry") }) == [5])
        #expect(try ids(Reminder.where { $0.title.hasSuffix("") }) == [1, 2, 3, 4, 5])
        #expect(try ids(Reminder.where { $0.title.hasPrefix("G_o") }) == [1])
        #expect(Reminder.where { $0.title.contains("x") }.sql.hasSuffix(#"WHERE ("reminder"."title" LIKE ?)"#))
        #expect(Reminder.where { $0.title.contains("x") }.bindings == [.text("%x%")])
    }

    @Test func stringFunctions() throws {
        let query = Reminder.find(3).select { ($0.title.lower(), $0.title.upper(), $0.title.length()) }
        #expect(query.sql.hasPrefix(#"SELECT lower("reminder"."title"), upper("reminder"."title"), length("reminder"."title")"#))
        let row = try #require(try query.fetchOne(db))
        #expect(row.0 == "email boss" && row.1 == "EMAIL BOSS" && row.2 == 10)
        let joined = Reminder.find(1).select { $0.title.concat(": ").concat($0.title) }
        #expect(joined.sql.hasPrefix(#"SELECT (("reminder"."title" || ?) || "reminder"."title")"#))
        #expect(try joined.fetchOne(db) == "Groceries: Groceries")
    }

    @Test func coalesce() throws {
        let query = Reminder.order { $0.id }.select { $0.priority ?? 0 }
        #expect(query.sql == #"SELECT coalesce("reminder"."priority", ?) FROM "reminder" ORDER BY "reminder"."id""#)
        #expect(try query.fetchAll(db) == [2, 0, 3, 1, 2])
        #expect(try Reminder.find(2).select { $0.priority.coalesce($0.listID) }.fetchOne(db) == 1)
    }
}
