import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// The rows of a common table expression, declared as StructuredQueries declares them: `@Table` for
/// its name and columns, `@Selection` for `Columns`, which builds a row from another select's values.
@Table("count") @Selection
struct Count: Equatable, Sendable {
    var value: Int
}

@Suite("Common table expressions")
struct CommonTableExpressionTests {
    let db: Connection
    init() throws { db = try makeRemindersDatabase() }

    @Test func recursiveCountFromOneToTen() throws {
        let query = With {
            Count(value: 1).union(Count.where { $0.value < 10 }.select { Count.Columns(value: $0.value + 1) })
        } query: {
            Count.all
        }
        #expect(query.sql == #"WITH "count"("value") AS (SELECT ? UNION SELECT ("count"."value" + ?) FROM "count" WHERE ("count"."value" < ?)) SELECT "count"."value" FROM "count""#)
        #expect(query.bindings == [.integer(1), .integer(1), .integer(10)])
        #expect(try query.fetchAll(db).map(\.value) == Array(1...10))
    }

    @Test func aSelectOfAnotherTableNamedAsATable() throws {
        let query = With {
            Reminder.where { !$0.isDone }.select { Count.Columns(value: $0.listID) }
        } query: {
            Count.order(by: \.value).select(\.value).distinct()
        }
        #expect(query.sql == #"WITH "count"("value") AS (SELECT "reminder"."listID" FROM "reminder" WHERE (NOT "reminder"."isDone")) SELECT DISTINCT "count"."value" FROM "count" ORDER BY "count"."value""#)
        #expect(try query.fetchAll(db) == [1, 2])
    }
}
