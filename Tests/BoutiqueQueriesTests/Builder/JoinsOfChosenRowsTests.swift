import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// Joins after a `select` that chose the tables' rows themselves, and outer joins of a filtered
/// select: the SQL keeps what the rows mean, and the rows decode as their types say.
@Suite("Joins of chosen rows and filtered sides")
struct JoinsOfChosenRowsTests {
    let db: Connection
    init() throws { db = try makeGardenDatabase() }

    @Test func aSelectOfTheRowThenAnOuterJoinReadsBothTables() throws {
        // `select { $0 }` chose only the plant's columns; the join reads the bed's too.
        let right = Plant.select { $0 }.rightJoin(Bed.all) { $0.bedID.eq($1.id) }.order { ($1.id, $0.id) }
        #expect(right.sql.hasPrefix(#"SELECT "plant"."id", "plant"."bedID", "plant"."name", "plant"."height", "plant"."waterings", "plant"."isBlooming", "plant"."isArchived", "plant"."rank", "bed"."id", "bed"."name" FROM "plant" RIGHT JOIN "bed""#))
        let rows = try right.fetchAll(db)
        #expect(rows.map { $0.0?.name } == ["Basil", "Mint", "Climber", "Shrub", nil])
        #expect(rows.map(\.1) == [Bed(id: 1, name: "Herbs"), Bed(id: 1, name: "Herbs"), Bed(id: 2, name: "Roses"), Bed(id: 2, name: "Roses"), Bed(id: 3, name: "Fallow")])

        let full = try Plant.select { $0 }.fullJoin(Bed.all) { $0.bedID.eq($1.id) }.fetchAll(db)
        let described = full.map { "\($0.0?.name ?? "-")/\($0.1?.name ?? "-")" }
        #expect(described.sorted() == ["-/Fallow", "Basil/Herbs", "Climber/Roses", "Mint/Herbs", "Seedling/-", "Shrub/Roses"])
    }

    @Test func joinedRowsChosenAsATupleThenAnotherTable() throws {
        let pairs = Plant.join(Bed.all) { $0.bedID.eq($1.id) }.select { ($0, $1) }

        let right = pairs.rightJoin(Gardener.all) { _, bed, gardener in bed.id.eq(gardener.id) }
            .order { plant, _, gardener in (gardener.id, plant.id) }
        let rightRows = try right.fetchAll(db)
        #expect(rightRows.map { $0.0?.name } == ["Basil", "Mint", "Climber", "Shrub", nil])
        #expect(rightRows.map { $0.1?.name } == ["Herbs", "Herbs", "Roses", "Roses", nil])
        #expect(rightRows.map(\.2.name) == ["Olu", "Olu", "Pia", "Pia", "Rafe"])

        let full = try pairs.fullJoin(Gardener.all) { _, bed, gardener in bed.id.eq(gardener.mentorID) }.fetchAll(db)
        let described = full.map { "\($0.0?.name ?? "-")/\($0.1?.name ?? "-")/\($0.2?.name ?? "-")" }
        #expect(described.sorted() == ["-/-/Olu", "-/-/Rafe", "Basil/Herbs/Pia", "Climber/Roses/-", "Mint/Herbs/Pia", "Shrub/Roses/-"])

        let inner = try pairs.join(Gardener.all) { _, bed, gardener in bed.id.eq(gardener.id) }
            .order { plant, _, _ in plant.id }.fetchAll(db)
        #expect(inner.map { "\($0.0.name)/\($0.1.name)/\($0.2.name)" } == ["Basil/Herbs/Olu", "Mint/Herbs/Olu", "Climber/Roses/Pia", "Shrub/Roses/Pia"])

        let left = try pairs.leftJoin(Gardener.all) { _, bed, gardener in bed.id.eq(gardener.mentorID) }
            .order { plant, _, _ in plant.id }.fetchAll(db)
        #expect(left.map { "\($0.0.name)/\($0.1.name)/\($0.2?.name ?? "-")" } == ["Basil/Herbs/Pia", "Mint/Herbs/Pia", "Climber/Roses/-", "Shrub/Roses/-"])
    }

    @Test func aFilteredSideOfAFullJoinKeepsItsFilterInWhere() throws {
        // In ON, the filter would only unpair the plants that do not bloom and keep them (and the
        // Fallow bed) with nil; in WHERE it drops them, as it did before the join.
        let full = Bed.all.fullJoin(Plant.where(\.isBlooming)) { $0.id.eq($1.bedID) }
        #expect(full.sql.hasSuffix(#" FROM "bed" FULL JOIN "plant" ON ("bed"."id" = "plant"."bedID") WHERE "plant"."isBlooming""#))
        let rows = try full.fetchAll(db).map { "\($0.0?.name ?? "-")/\($0.1?.name ?? "-")" }
        #expect(rows.sorted() == ["Herbs/Mint", "Roses/Climber"])

        // After another join, likewise.
        let after = Plant.join(Bed.all) { $0.bedID.eq($1.id) }
            .fullJoin(Gardener.where { $0.mentorID.isNot(nil) }) { _, bed, gardener in bed.id.eq(gardener.id) }
        #expect(after.sql.hasSuffix(#"FULL JOIN "gardener" ON ("bed"."id" = "gardener"."id") WHERE ("gardener"."mentorID" IS NOT ?)"#))
        let afterRows = try after.fetchAll(db).map { "\($0.0?.name ?? "-")/\($0.2?.name ?? "-")" }
        #expect(afterRows.sorted() == ["-/Rafe", "Climber/Pia", "Shrub/Pia"])

        // A filtered side of a right join: its filter stays in WHERE too.
        let right = Plant.all.rightJoin(Bed.where { $0.id.neq(3) }) { $0.bedID.eq($1.id) }
        #expect(right.sql.hasSuffix(#"RIGHT JOIN "bed" ON ("plant"."bedID" = "bed"."id") WHERE ("bed"."id" <> ?)"#))
        #expect(try right.fetchAll(db).map(\.1.name).sorted() == ["Herbs", "Herbs", "Roses", "Roses"])
    }
}
