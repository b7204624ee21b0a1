import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

// The functions of StructuredQueries' "Custom functions" article, at file level as an app declares them.

@DatabaseFunction
func exclaim(_ string: String) -> String {
    string.localizedUppercase + "!"
}

enum Priority: Int, QueryBindable {
    case low = 1, medium, high
}

@DatabaseFunction
func mode(priority priorities: some Sequence<Priority?>) -> Priority? {
    var occurrences: [Priority: Int] = [:]
    for priority in priorities {
        guard let priority
        else { continue }
        occurrences[priority, default: 0] += 1
    }
    return occurrences.max { $0.value < $1.value }?.key
}

@DatabaseFunction(
    as: ((Date.UnixTimeRepresentation) -> Bool).self
)
func isPastDue(_ date: Date) -> Bool {
    date < Date()
}

@DatabaseFunction(
    as: (([String].JSONRepresentation) -> [String].JSONRepresentation).self
)
func jsonArrayExclaim(_ strings: [String]) -> [String] {
    strings.map { $0.localizedUppercase + "!" }
}

@DatabaseFunction(
    as: ((any Sequence<[String].JSONRepresentation>) -> [String].JSONRepresentation).self
)
func jsonJoined(_ arrays: some Sequence<[String]>) -> [String] {
    arrays.flatMap(\.self)
}

/// StructuredQueries' "Custom functions" article in its spelling: a scalar function, an aggregate over
/// optional enum values (alone and per group of a left join), and functions whose arguments and result
/// are stored with other representations. The functions are registered on a database's connections
/// (`add(function:)`), so here each test shows the SQL the calls render.
@Suite("Article: custom functions")
struct CustomFunctionsArticleTests {
    @Table("remindersLists")
    struct RemindersList: Equatable {
        let id: Int
        var title = ""
    }

    @Table("reminders")
    struct Reminder: Equatable {
        let id: Int
        var title = ""
        var priority: Priority?
        var remindersListID: Int
        @Column(as: Date.UnixTimeRepresentation.self)
        var dueDate: Date
        @Column(as: [String].JSONRepresentation.self)
        var tags: [String] = []
    }

    @Test func aScalarFunction() {
        let query = Reminder.select { $exclaim($0.title) }
        #expect(query.sql == #"SELECT "exclaim"("reminders"."title") FROM "reminders""#)
        #expect(exclaim("milk") == "MILK!")
    }

    @Test func anAggregateAloneAndPerGroup() {
        let mostCommon = Reminder
            .select { $mode(priority: $0.priority) }
        #expect(mostCommon.sql == #"SELECT "mode"("reminders"."priority") FROM "reminders""#)
        #expect(mode(priority: [.high, nil, .low, .high]) == .high)

        let perList = RemindersList
            .group(by: \.id)
            .leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) }
            .select { ($0.title, $mode(priority: $1.priority)) }
        #expect(perList.sql == #"SELECT "remindersLists"."title", "mode"("reminders"."priority") FROM "remindersLists" LEFT JOIN "reminders" ON ("remindersLists"."id" = "reminders"."remindersListID") GROUP BY "remindersLists"."id""#)
    }

    @Test func functionsWithRepresentations() {
        let overdue = Reminder.where { $isPastDue($0.dueDate) }.select(\.id)
        #expect(overdue.sql == #"SELECT "reminders"."id" FROM "reminders" WHERE "isPastDue"("reminders"."dueDate")"#)
        let exclaimed = Reminder.select { $jsonArrayExclaim($0.tags) }
        #expect(exclaimed.sql == #"SELECT "jsonArrayExclaim"("reminders"."tags") FROM "reminders""#)
        let joined = Reminder.select { $jsonJoined($0.tags) }
        #expect(joined.sql == #"SELECT "jsonJoined"("reminders"."tags") FROM "reminders""#)
        #expect(jsonJoined([["a"], ["b", "c"]]) == ["a", "b", "c"])
    }
}
