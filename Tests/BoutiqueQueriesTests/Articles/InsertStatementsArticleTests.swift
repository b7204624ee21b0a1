import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// StructuredQueries' "Inserts" article: rows of values for named columns (with `nil`, loops and
/// conditions), an insert from a select, conflict clauses and a row of default values.
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
}
