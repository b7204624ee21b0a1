import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// Joins of selects that chose a tuple of columns: the rows are the values chosen on either side,
/// this select's first, as StructuredQueries reads them.
@Suite("Joins of selects that chose a tuple")
struct JoinsOfChosenTuplesTests {
    let db: Connection
    init() throws { db = try makeGardenDatabase() }

    @Test func aTupleJoinedWithATable() throws {
        let query = Plant.select { ($0.id, $0.name) }.join(Bed.all) { $0.bedID.eq($1.id) }
            .where { _, bed in bed.name.eq("Roses") }
            .order { plant, _ in plant.id }
        #expect(query.sql == #"SELECT "plant"."id", "plant"."name" FROM "plant" JOIN "bed" ON ("plant"."bedID" = "bed"."id") WHERE ("bed"."name" = ?) ORDER BY "plant"."id""#)
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0) == [3, 4])
        #expect(rows.map(\.1) == ["Climber", "Shrub"])

        // Three values, and a left join that keeps the plant without a bed once.
        let left = try Plant.select { ($0.name, $0.height, $0.rank) }
            .leftJoin(Bed.where { $0.id.eq(1) }) { $0.bedID.eq($1.id) }
            .order { plant, _ in plant.id }
            .fetchAll(db)
        #expect(left.map(\.0) == ["Basil", "Mint", "Climber", "Shrub", "Seedling"])
        #expect(left.map(\.1) == [0.32, 0.6, 2.26, 1.48, 0.04])
        #expect(left.map(\.2) == [2, nil, 2, 3, nil])
    }

    @Test func aTableJoinedWithATuple() throws {
        let query = Bed.all.join(Plant.select { ($0.name, $0.isBlooming) }) { $0.id.eq($1.bedID) }
            .order { _, plant in plant.id }
        #expect(query.sql.hasPrefix(#"SELECT "plant"."name", "plant"."isBlooming" FROM "bed" JOIN "plant""#))
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0) == ["Basil", "Mint", "Climber", "Shrub"])
        #expect(rows.map(\.1) == [false, true, true, false])

        let fromTheType = try Bed.join(Plant.select { ($0.id, $0.name, $0.waterings, $0.height) }) { $0.id.eq($1.bedID) }
            .where { bed, _ in bed.id.eq(1) }
            .order { _, plant in plant.id }
            .fetchAll(db)
        #expect(fromTheType.map { "\($0.0) \($0.1) \($0.2) \($0.3)" } == ["1 Basil 4 0.32", "2 Mint -3 0.6"])
    }

    @Test func chosenValuesOnBothSidesReadInOrder() throws {
        let oneThenTwo = try Bed.select(\.name).join(Plant.select { ($0.name, $0.height) }) { $0.id.eq($1.bedID) }
            .order { _, plant in plant.id }
            .fetchAll(db)
        #expect(oneThenTwo.map { "\($0.0)/\($0.1)/\($0.2)" } == ["Herbs/Basil/0.32", "Herbs/Mint/0.6", "Roses/Climber/2.26", "Roses/Shrub/1.48"])

        let twoThenOne = Plant.select { ($0.id, $0.name) }.join(Bed.select(\.name)) { $0.bedID.eq($1.id) }
            .order { plant, _ in plant.id }
        #expect(twoThenOne.sql.hasPrefix(#"SELECT "plant"."id", "plant"."name", "bed"."name" FROM "plant" JOIN "bed""#))
        #expect(try twoThenOne.fetchAll(db).map { "\($0.0)/\($0.1)/\($0.2)" } == ["1/Basil/Herbs", "2/Mint/Herbs", "3/Climber/Roses", "4/Shrub/Roses"])
    }

    @Test func tuplesChosenOnBothSidesReadInOrder() throws {
        let joined = Plant.select { ($0.id, $0.name) }.join(Bed.select { ($0.id, $0.name) }) { $0.bedID.eq($1.id) }
        let query = joined.where { plant, _ in !plant.isArchived }.order { plant, _ in plant.id }
        #expect(query.sql == #"SELECT "plant"."id", "plant"."name", "bed"."id", "bed"."name" FROM "plant" JOIN "bed" ON ("plant"."bedID" = "bed"."id") WHERE (NOT "plant"."isArchived") ORDER BY "plant"."id""#)
        #expect(try query.fetchAll(db).map { "\($0.0)/\($0.1)/\($0.2)/\($0.3)" } == ["1/Basil/1/Herbs", "2/Mint/1/Herbs", "3/Climber/2/Roses"])

        // Four a side: eight values, this select's first.
        let plants = Plant.select { ($0.id, $0.name, $0.height, $0.rank) }
        let beds = Bed.select { ($0.id, $0.name, $0.id, $0.name) }
        let wide = plants.join(beds) { $0.bedID.eq($1.id) }.order { plant, _ in plant.id }.limit(1)
        let row = try #require(try wide.fetchAll(db).first)
        let described = "\(row.0) \(row.1) \(row.2) \(String(describing: row.3)) \(row.4) \(row.5) \(row.6) \(row.7)"
        #expect(described == "1 Basil 0.32 Optional(2) 1 Herbs 1 Herbs")
    }
}
