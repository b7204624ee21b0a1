import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// StructuredQueries' "Selects" and "Where clauses" articles: pagination with `offset`, reusable
/// scopes combined with `and`/`or` or chained by name, `unscoped`, `none`, outer joins (also after
/// another join), joins of selects that already chose their columns, a self-join through an alias,
/// and a row of `Values` computed from a subquery.
@Suite("Article: select statements")
struct SelectStatementsArticleTests {
    let db: Connection
    init() throws { db = try makeGardenDatabase() }

    @Test func offsetAloneAndLimitKeepingAnEarlierOffset() throws {
        let skipped = Plant.order { $0.id }.offset(3).select { $0.id }
        #expect(skipped.sql.hasSuffix(#"ORDER BY "plant"."id" LIMIT -1 OFFSET ?"#))
        #expect(try skipped.fetchAll(db) == [4, 5])

        let page = Plant.order { $0.id }.limit(1).offset(1).limit(2).select { $0.id }
        #expect(page.sql.hasSuffix("LIMIT ? OFFSET ?"))
        #expect(page.bindings == [.integer(2), .integer(1)])
        #expect(try page.fetchAll(db) == [2, 3])

        let noOffset: Int? = nil
        let unchanged = Plant.order { $0.id }.limit(2).offset(noOffset).select { $0.id }
        #expect(unchanged.sql.hasSuffix("LIMIT ?"))
        #expect(try unchanged.fetchAll(db) == [1, 2])
        #expect(try Plant.offset(4).select { $0.id }.fetchAll(db) == [5])
    }

    @Test func scopesCombineWithAndAndOr() throws {
        let both = Plant.blooming.and(Plant.tall)
        #expect(both.sql == #"SELECT "plant"."id", "plant"."bedID", "plant"."name", "plant"."height", "plant"."waterings", "plant"."isBlooming", "plant"."isArchived", "plant"."rank" FROM "plant" WHERE ("plant"."isBlooming") AND (("plant"."height" > ?))"#)
        #expect(try both.select { $0.name }.fetchAll(db) == ["Climber"])

        let either = Plant.blooming.or(Plant.tall).order { $0.id }.select { $0.name }
        #expect(either.sql.contains(#"WHERE ("plant"."isBlooming") OR (("plant"."height" > ?))"#))
        #expect(try either.fetchAll(db) == ["Mint", "Climber", "Shrub"])

        // A side without a filter leaves the other's alone.
        #expect(try Plant.all.or(Plant.tall).count().fetchOne(db) == 2)
        #expect(try Plant.tall.and(Plant.all).count().fetchOne(db) == 2)
    }

    @Test func scopesChainByNameAfterOtherClauses() throws {
        let query = Plant.where { $0.height < 2 }.current.ranked.order { $0.id }.select { $0.name }
        #expect(query.sql.contains(#"WHERE (("plant"."height" < ?)) AND ((NOT "plant"."isArchived"))"#))
        #expect(try query.fetchAll(db) == ["Basil"])
        #expect(try Plant.current.blooming.order { $0.id }.select { $0.name }.fetchAll(db) == ["Mint", "Climber"])
    }

    @Test func unscopedAndNone() throws {
        #expect(Plant.unscoped.sql == Plant.all.sql)
        #expect(try Plant.unscoped.count().fetchOne(db) == 5)
        #expect(Plant.tall.unscoped.sql == Plant.all.sql)

        let nothing = Plant.none
        #expect(nothing.sql.hasSuffix(#"FROM "plant" WHERE 0"#))
        #expect(try nothing.fetchAll(db).isEmpty)
        #expect(try Plant.blooming.none.fetchAll(db).isEmpty)
    }

    @Test func rightAndFullJoins() throws {
        let right = Plant.rightJoin(Bed.all) { $0.bedID.eq($1.id) }.order { ($1.id, $0.id) }
        #expect(right.sql.contains(#"FROM "plant" RIGHT JOIN "bed" ON ("plant"."bedID" = "bed"."id")"#))
        let rightRows = try right.fetchAll(db)
        #expect(rightRows.map { $0.0?.name } == ["Basil", "Mint", "Climber", "Shrub", nil])
        #expect(rightRows.map(\.1.name) == ["Herbs", "Herbs", "Roses", "Roses", "Fallow"])

        let full = try Plant.fullJoin(Bed.all) { $0.bedID.eq($1.id) }.fetchAll(db)
        #expect(full.count == 6)
        var plantsWithoutBed: [String] = []
        var bedsWithoutPlant: [String] = []
        for row in full {
            switch row {
            case (let plant?, nil): plantsWithoutBed.append(plant.name)
            case (nil, let bed?): bedsWithoutPlant.append(bed.name)
            default: break
            }
        }
        #expect(plantsWithoutBed == ["Seedling"])
        #expect(bedsWithoutPlant == ["Fallow"])
    }

    @Test func rightAndFullJoinsAfterAnotherJoin() throws {
        // Each gardener looks after the bed of their number; Rafe's bed (Fallow) has no plant, so
        // the inner join has no row for it and the right join keeps him with neither.
        let right = Plant.join(Bed.all) { $0.bedID.eq($1.id) }
            .rightJoin(Gardener.all) { _, bed, gardener in bed.id.eq(gardener.id) }
            .order { _, _, gardener in gardener.id }
            .order { plant, _, _ in plant.id }
        #expect(right.sql.contains(#" FROM "plant" JOIN "bed" ON ("plant"."bedID" = "bed"."id") RIGHT JOIN "gardener" ON ("bed"."id" = "gardener"."id") ORDER BY "gardener"."id", "plant"."id""#))
        let rows = try right.fetchAll(db)
        #expect(rows.map { $0.0?.name } == ["Basil", "Mint", "Climber", "Shrub", nil])
        #expect(rows.map { $0.1?.name } == ["Herbs", "Herbs", "Roses", "Roses", nil])
        #expect(rows.map(\.2.name) == ["Olu", "Olu", "Pia", "Pia", "Rafe"])

        // After a left join: a gardener mentored from a bed's number, every row of both sides kept.
        let full = Bed.leftJoin(Plant.all) { $0.id.eq($1.bedID) }
            .fullJoin(Gardener.all) { bed, _, gardener in bed.id.eq(gardener.mentorID) }
        #expect(full.sql.contains(#" FROM "bed" LEFT JOIN "plant" ON ("bed"."id" = "plant"."bedID") FULL JOIN "gardener" ON ("bed"."id" = "gardener"."mentorID")"#))
        let described = try full.fetchAll(db).map { "\($0.0?.name ?? "-")/\($0.1?.name ?? "-")/\($0.2?.name ?? "-")" }
        #expect(described.sorted() == [
            "-/-/Olu", "-/-/Rafe", "Fallow/-/-", "Herbs/Basil/Pia", "Herbs/Mint/Pia", "Roses/Climber/-", "Roses/Shrub/-",
        ])
    }

    @Test func joinsOfSelectsThatChoseTheirColumns() throws {
        // The chosen column stays the row; the joined table only filters and pairs.
        let names = Plant.select(\.name).join(Bed.all) { $0.bedID.eq($1.id) }.order { plant, _ in plant.id }
        #expect(names.sql == #"SELECT "plant"."name" FROM "plant" JOIN "bed" ON ("plant"."bedID" = "bed"."id") ORDER BY "plant"."id""#)
        #expect(try names.fetchAll(db) == ["Basil", "Mint", "Climber", "Shrub"])

        // Both sides chose: the row is both, this side's first, and the joined select's filter applies.
        let pairs = Bed.select(\.name).join(Plant.where(\.isBlooming).select(\.name)) { $0.id.eq($1.bedID) }
            .order { bed, _ in bed.id }
        #expect(pairs.sql == #"SELECT "bed"."name", "plant"."name" FROM "bed" JOIN "plant" ON ("bed"."id" = "plant"."bedID") WHERE "plant"."isBlooming" ORDER BY "bed"."id""#)
        let rows = try pairs.fetchAll(db)
        #expect(rows.map(\.0) == ["Herbs", "Roses"])
        #expect(rows.map(\.1) == ["Mint", "Climber"])

        // A select of rows joined with one that chose: the chosen columns are the row.
        let planted = Bed.join(Plant.select(\.name)) { $0.id.eq($1.bedID) }.where { bed, _ in bed.id.eq(2) }
        #expect(planted.sql.hasPrefix(#"SELECT "plant"."name" FROM "bed" JOIN "plant""#))
        #expect(try planted.fetchAll(db).sorted() == ["Climber", "Shrub"])
        let plantIDs = try Bed.all.join(Plant.select(\.id)) { $0.id.eq($1.bedID) }.fetchAll(db)
        #expect(plantIDs.sorted() == [1, 2, 3, 4])

        // A left join keeps the row without a match once.
        let beds = Bed.select(\.name).leftJoin(Plant.where(\.isBlooming)) { $0.id.eq($1.bedID) }.order { bed, _ in bed.id }
        #expect(beds.sql == #"SELECT "bed"."name" FROM "bed" LEFT JOIN "plant" ON ("bed"."id" = "plant"."bedID") AND "plant"."isBlooming" ORDER BY "bed"."id""#)
        #expect(try beds.fetchAll(db) == ["Herbs", "Roses", "Fallow"])
    }

    @Test func selfJoinThroughAnAliasOnAnOptionalKey() throws {
        // The left join's rows: a gardener and their mentor, or nil (a missing or unknown mentor).
        let query = Gardener.leftJoin(Gardener.as(Mentor.self).all) { $0.mentorID.eq($1.id) }
            .order { gardener, _ in gardener.id }
        #expect(query.sql.contains(#" FROM "gardener" LEFT JOIN "gardener" AS "mentor" ON ("gardener"."mentorID" = "mentor"."id") ORDER BY "gardener"."id""#))
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0.name) == ["Olu", "Pia", "Rafe"])
        #expect(rows.map { $0.1?.name } == [nil, "Olu", nil])

        let mentored = try Gardener.join(Gardener.as(Mentor.self).all) { $0.mentorID == $1.id }
            .select { gardener, _ in gardener.name }.fetchAll(db)
        #expect(mentored == ["Pia"])
    }

    @Test func valuesOfAnExistsSubquery() throws {
        let anyBlooming = Values(Plant.blooming.exists())
        #expect(anyBlooming.sql.hasPrefix(#"SELECT (EXISTS (SELECT "#))
        #expect(try anyBlooming.fetchOne(db) == true)
        let anyGiant = Values(Plant.where { $0.height > 10 }.exists(), Bed.exists())
        let row = try #require(try anyGiant.fetchOne(db))
        #expect(row.0 == false && row.1 == true)
    }
}

/// A bundle of selected columns, for `map` after chained selects.
@Selection
struct PlantSummary: Sendable, Equatable {
    let name: String
    let waterings: Int
}

@Suite("Article: select statements, chained selections")
struct ChainedSelectionArticleTests {
    let db: Connection
    init() throws { db = try makeGardenDatabase() }

    @Test func selectsAddToTheSelectedColumns() throws {
        let one = Plant.order { $0.id }.select(\.id)
        let two = one.select(\.name)
        let three = two.select { ($0.isBlooming, $0.height.round()) }
        #expect(three.sql == #"SELECT "plant"."id", "plant"."name", "plant"."isBlooming", round("plant"."height") FROM "plant" ORDER BY "plant"."id""#)
        let rows = try three.fetchAll(db)
        #expect(rows.map(\.0) == [1, 2, 3, 4, 5])
        #expect(rows.map(\.1) == ["Basil", "Mint", "Climber", "Shrub", "Seedling"])
        #expect(rows.map(\.2) == [false, true, true, false, false])
        #expect(rows.map(\.3) == [0, 1, 2, 1, 0])
        // A select of whole rows still chooses its columns.
        #expect(Plant.where { $0.isBlooming }.select(\.name).sql == #"SELECT "plant"."name" FROM "plant" WHERE "plant"."isBlooming""#)
    }

    @Test func mapBundlesTheSelectedColumns() throws {
        let selected = Plant.where { $0.bedID.eq(1) }.order { $0.id }.select(\.id).select(\.name).select(\.waterings)
        let query = selected.map { _, name, waterings in
            PlantSummary.Columns(name: name.upper(), waterings: waterings * 2)
        }
        #expect(query.sql == #"SELECT upper("plant"."name"), ("plant"."waterings" * ?) FROM "plant" WHERE ("plant"."bedID" = ?) ORDER BY "plant"."id""#)
        #expect(try query.fetchAll(db) == [PlantSummary(name: "BASIL", waterings: 8), PlantSummary(name: "MINT", waterings: -6)])
        // One selected column, mapped to an expression of it.
        #expect(try Plant.count().map { $0 + 1 }.fetchOne(db) == 6)
    }
}
