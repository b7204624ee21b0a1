import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// StructuredQueries' "Updates" article, in this library: mutating spellings in `update { }`, a
/// filtered update, and `find(_:)` followed by `update`.
@Suite("Article: update statements")
struct UpdateStatementsArticleTests {
    let db: Connection
    init() throws { db = try makeGardenDatabase() }

    @Test func textColumnsAppendWithPlusEqualsAndAppend() throws {
        let suffixed = Plant.where { $0.bedID.eq(1) }.update { $0.name += " (herb)" }
        #expect(suffixed.sql == #"UPDATE "plant" SET "name" = ("name" || ?) WHERE ("plant"."bedID" = ?)"#)
        try suffixed.execute(db)
        let appended = Plant.find(5).update { $0.name.append("!") }
        #expect(appended.sql == #"UPDATE "plant" SET "name" = ("name" || ?) WHERE ("plant"."id" = ?)"#)
        try appended.execute(db)
        #expect(try Plant.order { $0.id }.select { $0.name }.fetchAll(db)
            == ["Basil (herb)", "Mint (herb)", "Climber", "Shrub", "Seedling!"])
    }

    @Test func toggleAndNumericCompoundAssignmentsInOneUpdate() throws {
        let update = Plant.find(1).update {
            $0.isBlooming.toggle()
            $0.waterings += 1
            $0.name += $0.name.upper()
        }
        #expect(update.sql == #"UPDATE "plant" SET "isBlooming" = (NOT "isBlooming"), "waterings" = ("waterings" + ?), "name" = ("name" || upper("name")) WHERE ("plant"."id" = ?)"#)
        try update.execute(db)
        let basil = try #require(try Plant.find(1).fetchOne(db))
        #expect(basil.isBlooming && basil.waterings == 5 && basil.name == "BasilBASIL")
        // The other rows are untouched.
        #expect(try Plant.where { $0.isBlooming }.count().fetchOne(db) == 3)
    }

    @Test func divideNegateAndAppendContentsOf() throws {
        let update = Plant.find(3).update {
            $0.waterings /= 2
            $0.height.negate()
            $0.name.append(contentsOf: $0.name.lower())
        }
        #expect(update.sql == #"UPDATE "plant" SET "waterings" = ("waterings" / ?), "height" = (-"height"), "name" = ("name" || lower("name")) WHERE ("plant"."id" = ?)"#)
        try update.execute(db)
        let climber = try #require(try Plant.find(3).fetchOne(db))
        #expect(climber.waterings == 3 && climber.height == -2.26 && climber.name == "Climberclimber")
    }

    @Test func findThenUpdateReturningTheChangedRow() throws {
        let returned = try Plant.find(3).update { $0.waterings += 2 }.returning { $0.waterings }.fetchAll(db)
        #expect(returned == [9])
        #expect(try Plant.find(4).update { $0.rank = nil }.returning { $0.rank }.fetchAll(db) == [nil])
    }
}

/// StructuredQueries' "Deletes" article: a filtered delete and `find(_:)` followed by `delete()`.
@Suite("Article: delete statements")
struct DeleteStatementsArticleTests {
    let db: Connection
    init() throws { db = try makeGardenDatabase() }

    @Test func findThenDeleteRemovesOnlyThatRow() throws {
        let delete = Plant.find(2).delete()
        #expect(delete.sql == #"DELETE FROM "plant" WHERE ("plant"."id" = ?)"#)
        try delete.execute(db)
        #expect(try Plant.order { $0.id }.select { $0.id }.fetchAll(db) == [1, 3, 4, 5])
    }

    @Test func scopedDeleteReturningTheDeletedNames() throws {
        let names = try Plant.where { $0.isArchived }.delete().returning { $0.name }.fetchAll(db)
        #expect(names == ["Shrub"])
        #expect(try Plant.count().fetchOne(db) == 4)
    }
}
