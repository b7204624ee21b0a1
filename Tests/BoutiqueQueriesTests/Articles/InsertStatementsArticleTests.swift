import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// StructuredQueries' "Inserts" article: rows of values for named columns (with `nil`, loops and
/// conditions), an insert from a select, conflict clauses (with `where:` filters on the conflict
/// target and on the update) and a row of default values.
@Suite("Article: insert statements")
struct InsertStatementsArticleTests {
    let db: Connection
    init() throws { db = try makeGardenDatabase() }

    @Test func rowsOfValuesWithNilAndEnumLiterals() throws {
        let insert = Plant.insert { ($0.id, $0.bedID, $0.name, $0.height, $0.waterings) } values: {
            (10, 2, "Tulip", 0.4, 0)
            (11, nil, "Cutting", 0.1, 2)
        }
        #expect(insert.sql == #"INSERT INTO "plant" ("id", "bedID", "name", "height", "waterings") VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)"#)
        #expect(insert.bindings == [.integer(10), .integer(2), .text("Tulip"), .real(0.4), .integer(0),
                                    .integer(11), .null, .text("Cutting"), .real(0.1), .integer(2)])
        try insert.execute(db)
        let rows = try Plant.where { $0.id >= 10 }.order { $0.id }.select { ($0.bedID, $0.name) }.fetchAll(db)
        #expect(rows.map(\.0) == [2, nil])
        #expect(rows.map(\.1) == ["Tulip", "Cutting"])
    }

    @Test func aLoopAndAConditionInTheValuesBuilder() throws {
        let names = ["Fern", "Ivy", "Moss"]
        let withExtra = true
        let insert = Plant.insert { ($0.name, $0.height, $0.waterings) } values: {
            for (index, name) in names.enumerated() {
                (name, Double(index), index)
            }
            if withExtra {
                ("Thyme", 0.2, 9)
            }
        }
        #expect(insert.sql.hasSuffix("VALUES (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?)"))
        try insert.execute(db)
        #expect(try Plant.where { $0.id > 5 }.order { $0.id }.select { $0.name }.fetchAll(db)
            == ["Fern", "Ivy", "Moss", "Thyme"])

        // One column, one value per line.
        try Label.insert { $0.name } values: {
            for name in ["sun", "wind"] { name }
        }.execute(db)
        #expect(try Label.order { $0.id }.select { $0.name }.fetchAll(db) == ["edible", "shade", "sun", "wind"])
    }

    @Test func aLoopOverNothingInsertsNothing() throws {
        let none: [String] = []
        let insert = Label.insert { $0.name } values: {
            for name in none { name }
        }
        #expect(insert.sql == #"INSERT INTO "label" ("name") SELECT NULL WHERE 0"#)
        try insert.execute(db)
        #expect(try Label.count().fetchOne(db) == 2)
    }

    @Test func valuesFromASelect() throws {
        let insert = Label.insert { $0.name } select: { Bed.select { $0.name.lower() } }
        #expect(insert.sql == #"INSERT INTO "label" ("name") SELECT lower("bed"."name") FROM "bed""#)
        try insert.execute(db)
        #expect(try Label.order { $0.id }.select { $0.name }.fetchAll(db) == ["edible", "shade", "herbs", "roses", "fallow"])

        try Plant.insert { ($0.name, $0.height, $0.waterings) } select: {
            Bed.where { $0.id.eq(3) }.select { ($0.name, 0.5, 0) }
        }.execute(db)
        #expect(try Plant.where { $0.name.eq("Fallow") }.select { $0.height }.fetchAll(db) == [0.5])
    }

    @Test func onConflictDoUpdateReadsTheExcludedRow() throws {
        let insert = Label.insert { ($0.name, $0.uses) } values: {
            ("edible", 5)
            ("fresh", 1)
        } onConflict: {
            $0.name
        } doUpdate: { label, excluded in
            label.uses += excluded.uses
        }
        #expect(insert.sql == #"INSERT INTO "label" ("name", "uses") VALUES (?, ?), (?, ?) ON CONFLICT ("name") DO UPDATE SET "uses" = ("uses" + excluded."uses")"#)
        try insert.execute(db)
        let labels = try Label.order { $0.id }.select { ($0.name, $0.uses) }.fetchAll(db)
        #expect(labels.map(\.0) == ["edible", "shade", "fresh"])
        #expect(labels.map(\.1) == [7, 0, 1])
    }

    @Test func onConflictWithOneArgumentAndOnConflictDoUpdate() throws {
        let byName = Label.insert { ($0.name, $0.uses) } values: { ("shade", 3) } onConflict: { $0.name } doUpdate: {
            $0.uses += 1
            $0.name += "-2"
        }
        #expect(byName.sql.hasSuffix(#" ON CONFLICT ("name") DO UPDATE SET "uses" = ("uses" + ?), "name" = ("name" || ?)"#))
        try byName.execute(db)
        let anyConstraint = Label.insert { ($0.id, $0.name) } values: { (1, "other") } onConflictDoUpdate: {
            $0.uses = 100
        }
        #expect(anyConstraint.sql.hasSuffix(#" ON CONFLICT DO UPDATE SET "uses" = ?"#))
        try anyConstraint.execute(db)
        let labels = try Label.order { $0.id }.select { ($0.name, $0.uses) }.fetchAll(db)
        #expect(labels.map(\.0) == ["edible", "shade-2"])
        #expect(labels.map(\.1) == [100, 1])
    }

    @Test func defaultValues() throws {
        let insert = Watering.insert()
        #expect(insert.sql == #"INSERT INTO "watering" DEFAULT VALUES"#)
        let rows = try insert.returning().fetchAll(db)
        #expect(rows == [Watering(id: 1, litres: 1.5, note: "routine")])
    }

    @Test func whereFiltersOnTheConflictTargetAndTheUpdate() throws {
        // Names are unique among the plants still grown: the target's filter names that partial index.
        try db.execute("CREATE UNIQUE INDEX plant_grown_name ON plant (name) WHERE NOT isArchived")
        func plant(_ id: Int, _ name: String) -> Plant { Plant(id: id, bedID: 1, name: name, height: 0.5, waterings: 10) }
        func insert(_ row: Plant) -> Insert<Plant> {
            Plant.insert {
                row
            } onConflict: {
                $0.name
            } where: {
                !$0.isArchived
            } doUpdate: {
                $0.waterings += $1.waterings
            } where: { plant, _ in
                !plant.isBlooming
            }
        }
        #expect(insert(plant(10, "Basil")).sql == #"INSERT INTO "plant" ("id", "bedID", "name", "height", "waterings", "isBlooming", "isArchived", "rank") VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT ("name") WHERE (NOT "plant"."isArchived") DO UPDATE SET "waterings" = ("waterings" + excluded."waterings") WHERE (NOT "plant"."isBlooming")"#)
        // Basil is not blooming: updated. Mint is: the update's filter keeps it as it was. Shrub is
        // archived, outside the index: no conflict, a new row.
        try insert(plant(10, "Basil")).execute(db)
        try insert(plant(11, "Mint")).execute(db)
        try insert(plant(12, "Shrub")).execute(db)
        let rows = try Plant.order { $0.id }.select { ($0.id, $0.name, $0.waterings) }.fetchAll(db)
        #expect(rows.map(\.0) == [1, 2, 3, 4, 5, 12])
        #expect(rows.map(\.2) == [14, -3, 7, 0, 1, 10])
    }

    @Test func whereFiltersOnRowsOfValues() throws {
        // Both filters, on rows of values: the target's names the partial index, the update's reads
        // the existing row and the refused one.
        try db.execute("CREATE UNIQUE INDEX plant_grown_name ON plant (name) WHERE NOT isArchived")
        let grow = Plant.insert { ($0.id, $0.name, $0.height, $0.waterings) } values: {
            (10, "Basil", 0.5, 10)
            (11, "Climber", 0.5, 1)
            (12, "Shrub", 0.5, 10)
        } onConflict: {
            $0.name
        } where: {
            !$0.isArchived
        } doUpdate: { plant, excluded in
            plant.waterings = excluded.waterings
        } where: { plant, excluded in
            plant.waterings < excluded.waterings
        }
        #expect(grow.sql.hasSuffix(#" ON CONFLICT ("name") WHERE (NOT "plant"."isArchived") DO UPDATE SET "waterings" = excluded."waterings" WHERE ("plant"."waterings" < excluded."waterings")"#))
        try grow.execute(db)
        // Basil had fewer: updated. Climber had more: kept. Shrub is archived: a new row.
        let rows = try Plant.order { $0.id }.select { ($0.id, $0.waterings) }.fetchAll(db)
        #expect(rows.map(\.0) == [1, 2, 3, 4, 5, 12])
        #expect(rows.map(\.1) == [10, -3, 7, 0, 1, 10])

        // Any constraint, with the update's filter alone.
        let refill = Label.insert { ($0.name, $0.uses) } values: {
            ("edible", 5)
            ("shade", 5)
        } onConflictDoUpdate: { label, excluded in
            label.uses = excluded.uses
        } where: { label, excluded in
            label.uses < excluded.uses - 4
        }
        #expect(refill.sql.hasSuffix(#" ON CONFLICT DO UPDATE SET "uses" = excluded."uses" WHERE ("label"."uses" < (excluded."uses" - ?))"#))
        try refill.execute(db)
        #expect(try Label.order { $0.id }.select { $0.uses }.fetchAll(db) == [2, 5])

        // One argument, and the whole `where:` builder: lines are ANDed, an `if` adds one or none.
        let onlyUnused = true
        let reset = Label.insert { ($0.name, $0.uses) } values: { ("edible", 0) } onConflictDoUpdate: {
            $0.uses = 1
        } where: {
            $0.name.eq("edible")
            if onlyUnused { $0.uses.eq(0) }
        }
        #expect(reset.sql.hasSuffix(#" DO UPDATE SET "uses" = ? WHERE ("label"."name" = ?) AND ("label"."uses" = ?)"#))
        try reset.execute(db)
        #expect(try Label.order { $0.id }.select { $0.uses }.fetchAll(db) == [2, 5])

        // Without `doUpdate`, a conflict on the target does nothing.
        let keep = Label.insert { ($0.name, $0.uses) } values: { ("shade", 9) } onConflict: { $0.name }
        #expect(keep.sql.hasSuffix(#" ON CONFLICT ("name") DO NOTHING"#))
        try keep.execute(db)
        #expect(try Label.order { $0.id }.select { $0.uses }.fetchAll(db) == [2, 5])
    }

    @Test func onConflictDoUpdateOfRowsWithAFilter() throws {
        let insert = Label.insert {
            Label(id: 1, name: "edible", uses: 1)
            Label(id: 2, name: "shade", uses: 1)
        } onConflictDoUpdate: {
            $0.uses += $1.uses
        } where: { label, _ in
            label.uses > 0
        }
        #expect(insert.sql == #"INSERT INTO "label" ("id", "name", "uses") VALUES (?, ?, ?), (?, ?, ?) ON CONFLICT DO UPDATE SET "uses" = ("uses" + excluded."uses") WHERE ("label"."uses" > ?)"#)
        #expect(insert.bindings.suffix(1) == [.integer(0)])
        try insert.execute(db)
        #expect(try Label.order { $0.id }.select { $0.uses }.fetchAll(db) == [3, 0])
    }
}
