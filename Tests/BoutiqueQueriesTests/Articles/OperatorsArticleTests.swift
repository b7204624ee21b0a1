import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// StructuredQueries' "Operators" article (equality and comparison): `eq`, `neq`, `is` and `isNot`
/// between an optional column and a column of its wrapped type, between two columns of one table,
/// `+` joining text, the bit operators and unary signs on integers, and a closed range's `contains`
/// as `BETWEEN`.
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

    @Test func bitOperatorsOnIntegerColumns() throws {
        // Waterings: Basil 4, Mint -3, Climber 7, Shrub 0, Seedling 1.
        let odd = Plant.where { ($0.waterings & 1).eq(1) }.order { $0.id }.select { $0.name }
        #expect(odd.sql == #"SELECT "plant"."name" FROM "plant" WHERE (("plant"."waterings" & ?) = ?) ORDER BY "plant"."id""#)
        #expect(try odd.fetchAll(db) == ["Mint", "Climber", "Seedling"])

        let bits = Plant.order { $0.id }.select { ($0.waterings | 8, $0.waterings << 2, $0.waterings >> 1, ~$0.waterings) }
        #expect(bits.sql == #"SELECT ("plant"."waterings" | ?), ("plant"."waterings" << ?), ("plant"."waterings" >> ?), (~"plant"."waterings") FROM "plant" ORDER BY "plant"."id""#)
        let rows = try bits.fetchAll(db)
        let waterings = [4, -3, 7, 0, 1]
        // SQLite's answers are Swift's: `>>` keeps the sign, `~` flips every bit of the 64-bit value.
        let ored: [Int] = waterings.map { $0 | 8 }
        let shiftedUp: [Int] = waterings.map { $0 << 2 }
        let shiftedDown: [Int] = waterings.map { $0 >> 1 }
        let flipped: [Int] = waterings.map { ~$0 }
        #expect(rows.map(\.0) == ored)
        #expect(rows.map(\.1) == shiftedUp)
        #expect(rows.map(\.2) == shiftedDown)
        #expect(rows.map(\.3) == flipped)

        // Between two columns.
        let masked = Plant.where { $0.id.eq(3) }.select { $0.waterings & $0.id }
        #expect(try masked.fetchOne(db) == 7 & 3)
    }

    @Test func unarySignsOnNumbers() throws {
        let query = Plant.where { $0.id.eq(2) }.select { (-$0.waterings, +$0.waterings, +$0.height, -$0.height) }
        #expect(query.sql == #"SELECT (-"plant"."waterings"), (+"plant"."waterings"), (+"plant"."height"), (-"plant"."height") FROM "plant" WHERE ("plant"."id" = ?)"#)
        let row = try #require(try query.fetchOne(db))
        #expect(row.0 == 3 && row.1 == -3 && row.2 == 0.6 && row.3 == -0.6)
    }

    @Test func bitAssignmentsInAnUpdate() throws {
        let update = Plant.update {
            $0.waterings |= 16
            $0.waterings &= 22
        }.where { $0.id.eq(1) }
        // The second assignment reads the first, as statements in a closure do.
        #expect(update.sql == #"UPDATE "plant" SET "waterings" = (("waterings" | ?) & ?) WHERE ("plant"."id" = ?)"#)
        try update.execute(db)
        try Plant.update { $0.waterings <<= 1 }.where { $0.id.eq(3) }.execute(db)
        try Plant.update { $0.waterings >>= 2 }.where { $0.id.eq(2) }.execute(db)
        try Plant.update { $0.waterings = ~$0.waterings }.where { $0.id.eq(4) }.execute(db)
        let rows = try Plant.order { $0.id }.select { $0.waterings }.fetchAll(db)
        let expected: [Int] = [(4 | 16) & 22, -3 >> 2, 7 << 1, ~0, 1]
        #expect(rows == expected)
    }

    @Test func aClosedRangeContainsAnExpressionAsBetween() throws {
        // StructuredQueries renders `length("title") BETWEEN 4 AND 5`; the bounds are bound here.
        let byLength = Plant.where { (4...5).contains($0.name.length()) }.order { $0.id }.select { $0.name }
        #expect(byLength.sql == #"SELECT "plant"."name" FROM "plant" WHERE (length("plant"."name") BETWEEN ? AND ?) ORDER BY "plant"."id""#)
        #expect(byLength.bindings == [.integer(4), .integer(5)])
        #expect(try byLength.fetchAll(db) == ["Basil", "Mint", "Shrub"])

        // Both bounds are included; a range of doubles is not a sequence, and works the same.
        let watered = Plant.where { (4...7).contains($0.waterings) }.order { $0.id }.select { $0.name }
        #expect(try watered.fetchAll(db) == ["Basil", "Climber"])
        let midHeight = Plant.where { (0.6...1.48).contains($0.height) }.order { $0.id }.select { $0.name }
        #expect(midHeight.sql.hasSuffix(#"WHERE ("plant"."height" BETWEEN ? AND ?) ORDER BY "plant"."id""#))
        #expect(try midHeight.fetchAll(db) == ["Mint", "Shrub"])
    }
}

/// The listings of StructuredQueries' "Operators" article (and the "Scalar functions" and "Compiler
/// performance" ones), in their spelling, over a few reminders.
@Suite("Article: operators, listing by listing")
struct OperatorsListingsArticleTests {
    @Table("reminders")
    struct Reminder: Equatable {
        let id: Int
        var title = ""
        var date: String?
    }

    static func database() throws -> Connection {
        let db = try Connection(path: ":memory:")
        try db.execute("""
            CREATE TABLE "reminders" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '', "date" TEXT);
            INSERT INTO "reminders" VALUES (1, 'Get milk', '2000-01-01'), (2, 'Return the library books', NULL),
                (3, 'get a haircut', '2999-01-01'), (4, 'Getaway planning', NULL);
            """)
        return db
    }

    @Test func likeInHasPrefixAndARangeOfLengths() throws {
        let db = try Self.database()
        let like = Reminder.where { $0.title.like("Get%") }
        #expect(like.sql.hasSuffix(#"WHERE ("reminders"."title" LIKE ?)"#))
        #expect(try like.select(\.id).fetchAll(db) == [1, 3, 4])

        let some = Reminder.where { $0.id.in([1, 2, 3]) }
        #expect(some.sql.hasSuffix(#"WHERE ("reminders"."id" IN (?, ?, ?))"#))
        #expect(try some.select(\.id).fetchAll(db) == [1, 2, 3])


        let middling = Reminder.where { (10...20).contains($0.title.length()) }
        #expect(middling.sql.contains("BETWEEN"))
        #expect(try middling.select(\.id).fetchAll(db) == [3, 4])
    }

    @Test func lengthAndSQLInAFilter() throws {
        let db = try Self.database()
        let lengths = Reminder.select { $0.title.length() }
        #expect(lengths.sql == #"SELECT length("reminders"."title") FROM "reminders""#)
        #expect(try lengths.fetchAll(db) == [8, 24, 13, 16])

        let due = Reminder
            .where {
                #sql("coalesce(\($0.date), date('now')) <= date('now')")
            }
        #expect(due.sql.hasSuffix(#"WHERE coalesce("reminders"."date", date('now')) <= date('now')"#))
        #expect(try due.select(\.id).fetchAll(db) == [1, 2, 4])
    }
}
