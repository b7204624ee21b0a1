import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// The rows of a common table expression, written out as `@Table` and `@Selection` would write them:
/// one column, `value`, and `Columns`, an expression that builds a row from another select's values.
struct Count: Equatable, Sendable, Table {
    var value: Int

    struct TableColumns: TableDefinition {
        typealias Root = Count
        let value = TableColumn<Count, Int>("value")
        static let allColumns: [ColumnSchema] = [.init("value", as: Int.self)]
    }
    static let columns = TableColumns()
    static var tableName: String { "count" }

    init(value: Int) { self.value = value }

    init(decoder: inout RowDecoder) throws(BoutiqueError) {
        value = try decoder.decode(Int.self)
    }

    func encodeColumns(into encoder: inout RowEncoder) {
        encoder.encode(value, as: Int.self)
    }

    struct Columns: QueryExpression {
        typealias QueryValue = Count
        let queryFragment: QueryFragment
        init(value: some QueryExpression<Int>) { queryFragment = value.queryFragment }
    }
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
