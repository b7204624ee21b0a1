import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// StructuredQueries' "Scalar functions" article: `abs`, `sign` and `round` as methods of numeric
/// columns and expressions.
@Suite("Article: scalar functions")
struct ScalarFunctionsArticleTests {
    let db: Connection
    init() throws { db = try makeGardenDatabase() }

    @Test func absAndSignOfIntegerColumnsAndExpressions() throws {
        let query = Plant.order { $0.id }.select { ($0.waterings.abs(), $0.waterings.sign(), ($0.waterings - 4).abs()) }
        #expect(query.sql == #"SELECT abs("plant"."waterings"), sign("plant"."waterings"), abs(("plant"."waterings" - ?)) FROM "plant" ORDER BY "plant"."id""#)
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0) == [4, 3, 7, 0, 1])
        #expect(rows.map(\.1) == [1, -1, 1, 0, 1])
        #expect(rows.map(\.2) == [0, 7, 3, 4, 3])
        // An optional column keeps its NULLs.
        #expect(try Plant.order { $0.id }.select { $0.rank.sign() }.fetchAll(db) == [1, nil, 1, 1, nil])
    }

    @Test func roundWithAndWithoutDigits() throws {
        let query = Plant.order { $0.id }.select { ($0.height.round(), $0.height.round(1), ($0.height * 3).round(2).abs()) }
        #expect(query.sql == #"SELECT round("plant"."height"), round("plant"."height", ?), abs(round(("plant"."height" * ?), ?)) FROM "plant" ORDER BY "plant"."id""#)
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0) == [0, 1, 2, 1, 0])
        #expect(rows.map(\.1) == [0.3, 0.6, 2.3, 1.5, 0.0])
        #expect(rows.map(\.2) == [0.96, 1.8, 6.78, 4.44, 0.12])
    }
}
