import BoutiqueQueries
import BoutiqueSQLite
import Testing

@Suite("Operators spelled as methods")
struct OperatorMethodTests {
    let db: Connection
    init() throws { db = try makeRemindersDatabase() }

    func ids(_ query: Select<Reminder.TableColumns, Reminder>) throws -> [Int] {
        try query.order { $0.id }.fetchAll(db).map(\.id)
    }

    @Test func comparisonMethods() throws {
        let eq = Reminder.where { $0.priority.eq(2) }
        #expect(eq.sql.hasSuffix(#"WHERE ("reminder"."priority" = ?)"#))
        #expect(try ids(eq) == [1, 5])
        #expect(try ids(Reminder.where { $0.id.neq(2) }) == [1, 3, 4, 5])
        #expect(try ids(Reminder.where { $0.id.lt(2) }) == [1])
        #expect(try ids(Reminder.where { $0.id.lte(2) }) == [1, 2])
        #expect(try ids(Reminder.where { $0.id.gt(4) }) == [5])
        #expect(try ids(Reminder.where { $0.id.gte(4) }) == [4, 5])
        let columns = Reminder.where { $0.listID.eq($0.id) }
        #expect(columns.sql.hasSuffix(#"WHERE ("reminder"."listID" = "reminder"."id")"#))
        #expect(try ids(columns) == [1])
    }

    // `eq(nil)` renders `=` as StructuredQueries does, so it matches no row; `is(nil)` matches NULL.
    @Test func eqNilMatchesNothing() throws {
        let query = Reminder.where { $0.priority.eq(nil) }
        #expect(query.sql.hasSuffix(#"WHERE ("reminder"."priority" = ?)"#))
        #expect(query.bindings == [.null])
        #expect(try ids(query) == [])
        #expect(try ids(Reminder.where { $0.priority.is(nil) }) == [2])
    }

    @Test func logicalMethods() throws {
        let query = Reminder.where { $0.listID.eq(1).and($0.isDone.not()).or($0.priority.eq(3)) }
        #expect(query.sql.hasSuffix(#"WHERE ((("reminder"."listID" = ?) AND (NOT "reminder"."isDone")) OR ("reminder"."priority" = ?))"#))
        #expect(try ids(query) == [1, 3])
    }
}

@Suite("Toggling a boolean column")
struct ToggleTests {
    @Test func toggleAssignsTheNegation() throws {
        let db = try makeRemindersDatabase()
        let update = Reminder.where { $0.id.in([1, 2]) }.update { $0.isDone.toggle() }
        #expect(update.sql == #"UPDATE "reminder" SET "isDone" = (NOT "isDone") WHERE ("reminder"."id" IN (?, ?))"#)
        try update.execute(db)
        let done = try Reminder.where { $0.isDone }.order { $0.id }.fetchAll(db).map(\.id)
        #expect(done == [1, 5])
    }
}
