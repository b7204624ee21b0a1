import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// StructuredQueries' "Operators" article (equality and comparison): `eq`, `neq`, `is` and `isNot`
/// between an optional column and a column of its wrapped type, between two columns of one table,
/// and `+` joining text.
@Suite("Article: operators")
struct OperatorsArticleTests {
    let db: Connection
    init() throws { db = try makeGardenDatabase() }

    @Test func eqBetweenAnOptionalKeyAndAKeyInAJoin() throws {
        let query = Plant.join(Bed.all) { $0.bedID.eq($1.id) }.order { plant, _ in plant.id }.select { ($0.name, $1.name) }
        #expect(query.sql == #"SELECT "plant"."name", "bed"."name" FROM "plant" JOIN "bed" ON ("plant"."bedID" = "bed"."id") ORDER BY "plant"."id""#)
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0) == ["Basil", "Mint", "Climber", "Shrub"])
        #expect(rows.map(\.1) == ["Herbs", "Herbs", "Roses", "Roses"])

        // The other way round: a key against an optional key.
        let reversed = Bed.join(Plant.all) { $0.id.eq($1.bedID) }.select { $1.id }
        #expect(reversed.sql.contains(#"ON ("bed"."id" = "plant"."bedID")"#))
        #expect(try reversed.fetchAll(db).sorted() == [1, 2, 3, 4])
    }

    @Test func neqIsAndIsNotBetweenOptionalAndWrappedColumns() throws {
        // Plants outside bed 2 and unplanted ones: `<>` drops the NULL, `IS NOT` keeps it.
        let isNot = Plant.join(Bed.all) { $0.bedID.isNot($1.id) }.where { $1.id.eq(2) }.order { plant, _ in plant.id }.select { plant, _ in plant.id }
        #expect(isNot.sql.contains(#"ON ("plant"."bedID" IS NOT "bed"."id")"#))
        #expect(try isNot.fetchAll(db) == [1, 2, 5])
        let notEqual = Plant.join(Bed.all) { $0.bedID.neq($1.id) }.where { $1.id.eq(2) }.order { plant, _ in plant.id }.select { plant, _ in plant.id }
        #expect(try notEqual.fetchAll(db) == [1, 2])
        let same = Plant.join(Bed.all) { $0.bedID.is($1.id) }.order { plant, _ in plant.id }.select { plant, _ in plant.id }
        #expect(same.sql.contains(#"ON ("plant"."bedID" IS "bed"."id")"#))
        #expect(try same.fetchAll(db) == [1, 2, 3, 4])
        let keyIsOptional = Bed.join(Plant.all) { $0.id.is($1.bedID) }.select { $1.id }
        #expect(try keyIsOptional.fetchAll(db).sorted() == [1, 2, 3, 4])
    }

    @Test func comparisonsBetweenTwoColumnsOfOneTable() throws {
        let ranked = Plant.where { $0.rank.eq($0.bedID) }.select { $0.name }
        #expect(ranked.sql == #"SELECT "plant"."name" FROM "plant" WHERE ("plant"."rank" = "plant"."bedID")"#)
        #expect(try ranked.fetchAll(db) == ["Climber"])
        let rankAboveBed = Plant.where { $0.rank.gt($0.bedID) }.select { $0.name }
        #expect(try rankAboveBed.fetchAll(db) == ["Basil", "Shrub"])
        // `IS` matches two NULLs, where `=` matches nothing.
        let sameOrBothMissing = Plant.where { $0.bedID.is($0.rank) }.select { $0.name }
        #expect(sameOrBothMissing.sql.hasSuffix(#"WHERE ("plant"."bedID" IS "plant"."rank")"#))
        #expect(try sameOrBothMissing.fetchAll(db) == ["Climber", "Seedling"])
        let sameNumbers = Plant.where { $0.waterings.eq($0.id + 3) }.select { $0.name }
        #expect(sameNumbers.sql.hasSuffix(#"WHERE ("plant"."waterings" = ("plant"."id" + ?))"#))
        #expect(try sameNumbers.fetchAll(db) == ["Basil"])
    }

    @Test func plusJoinsTextColumnsAndExpressions() throws {
        let query = Plant.where { $0.id.eq(1) }.select { $0.name + $0.name.lower() + "." }
        #expect(query.sql == #"SELECT (("plant"."name" || lower("plant"."name")) || ?) FROM "plant" WHERE ("plant"."id" = ?)"#)
        #expect(try query.fetchOne(db) == "Basilbasil.")
    }
}
