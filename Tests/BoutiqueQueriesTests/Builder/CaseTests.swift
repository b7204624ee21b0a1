import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// `CASE` expressions: every value bound, the first matching `WHEN` wins, no `else` reads as optional.
@Suite("CASE expressions")
struct CaseTests {
    let db: Connection
    init() throws { db = try makeRemindersDatabase() }

    @Test func conditionsWithElse() throws {
        let query = Reminder.order { $0.id }.select {
            Case().when($0.isDone, then: "done").when($0.priority == 3, then: "urgent").else("open")
        }
        #expect(query.sql.hasPrefix(
            #"SELECT CASE WHEN "reminder"."isDone" THEN ? WHEN ("reminder"."priority" = ?) THEN ? ELSE ? END FROM"#))
        #expect(query.bindings == [.text("done"), .integer(3), .text("urgent"), .text("open")])
        let words: [String] = try query.fetchAll(db)
        #expect(words == ["open", "done", "urgent", "open", "done"])
    }

    @Test func baseComparedWithValues() throws {
        let query = Reminder.order { $0.id }.select {
            Case($0.priority).when(1, then: "low").when(2, then: "medium").else("high")
        }
        #expect(query.sql.hasPrefix(#"SELECT CASE "reminder"."priority" WHEN ? THEN ? WHEN ? THEN ? ELSE ? END FROM"#))
        // Reminder 2's priority is NULL: it equals no WHEN value and takes the ELSE.
        let words: [String] = try query.fetchAll(db)
        #expect(words == ["medium", "high", "high", "low", "medium"])
    }

    @Test func withoutElseIsOptional() throws {
        let query = Reminder.order { $0.id }.select { Case($0.priority).when(1, then: "low").when(2, then: "medium") }
        #expect(query.sql.hasPrefix(#"SELECT CASE "reminder"."priority" WHEN ? THEN ? WHEN ? THEN ? END FROM"#))
        let words: [String?] = try query.fetchAll(db)
        #expect(words == ["medium", nil, nil, "low", "medium"])
    }

    @Test func optionalValuesStayOnceOptional() throws {
        let query = Reminder.order { $0.id }.select { Case().when(!$0.isDone, then: $0.priority).else(0) }
        let priorities: [Int] = try query.fetchAll(db)
        #expect(priorities == [2, 0, 3, 1, 0])
        let open: [Int?] = try Reminder.order { $0.id }.select { Case().when(!$0.isDone, then: $0.priority) }.fetchAll(db)
        #expect(open == [2, nil, 3, 1, nil])
    }

    @Test func caseInsideAnAggregate() throws {
        let query = Reminder.all.group { $0.listID }.order { $0.listID }.select {
            ($0.listID, Case().when(!$0.isDone, then: $0.title).groupConcat())
        }
        #expect(query.sql.hasPrefix(#"SELECT "reminder"."listID", group_concat(CASE WHEN (NOT "reminder"."isDone") THEN "reminder"."title" END) FROM"#))
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0) == [1, 2])
        #expect(rows.map(\.1) == ["Groceries", "Email boss,Plan offsite"])
    }
}
