import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// A table read twice in one query, once under an alias (StructuredQueries' `TableAlias`).
@Suite("Table aliases")
struct TableAliasTests {
    enum Other: AliasName {}
    enum Named: AliasName { static let aliasName = "other reminder" }

    let db: Connection
    init() throws { db = try makeRemindersDatabase() }

    @Test func aSelfJoinPairsRowsOfOneTable() throws {
        let pairs = Reminder
            .join(Reminder.as(Other.self).all) { $0.listID == $1.listID && $0.id < $1.id }
            .order { mine, other in (mine.id, other.id) }
            .select { mine, other in (mine.title, other.title) }
        #expect(pairs.sql == #"""
            SELECT "reminder"."title", "other"."title" FROM "reminder" JOIN "reminder" AS "other" ON (("reminder"."listID" = "other"."listID") AND ("reminder"."id" < "other"."id")) ORDER BY "reminder"."id", "other"."id"
            """#)
        let rows = try pairs.fetchAll(db)
        #expect(rows.map { "\($0.0)+\($0.1)" } == ["Groceries+Haircut", "Groceries+Laundry", "Haircut+Laundry", "Email boss+Plan offsite"])
    }

    @Test func anAliasedRowReadsAsTheTablesRow() throws {
        let query = Reminder.as(Other.self).where { $0.priority == 3 }
        #expect(query.sql.hasPrefix(#"SELECT "other"."id", "other"."title""#))
        #expect(query.sql.contains(#"FROM "reminder" AS "other" WHERE ("other"."priority" = ?)"#))
        let row = try #require(try query.fetchOne(db))
        #expect(row.title == "Email boss")
        #expect(row.base == (try Reminder.find(3).fetchOne(db)))

        // Whole rows of both sides, and a chosen alias quoted as a name.
        let both = try Reminder.join(Reminder.as(Named.self).all) { $0.id == $1.id }.where { $1.id == 4 }.fetchAll(db)
        #expect(both.map { [$0.0.title, $0.1.title] } == [["Plan offsite", "Plan offsite"]])
        #expect(Reminder.as(Named.self).all.sql.contains(#"FROM "reminder" AS "other reminder""#))
    }

    @Test func aLeftSelfJoinFindsRowsWithoutAPartner() throws {
        // Each reminder with the reminders of its list of higher priority: only "Plan offsite" (1) has
        // one, "Email boss" (3); a NULL priority is lower than none.
        let pairs = Reminder
            .leftJoin(Reminder.as(Other.self).all) { $0.listID == $1.listID && $0.priority < $1.priority }
            .order { mine, other in (mine.id, other.id) }
        #expect(pairs.sql.contains(#"LEFT JOIN "reminder" AS "other" ON"#))
        let rows = try pairs.fetchAll(db)
        #expect(rows.filter { $0.1 == nil }.map(\.0.title) == ["Groceries", "Haircut", "Email boss", "Laundry"])
        #expect(rows.compactMap { $0.1?.title } == ["Email boss"])
        #expect(rows.first { $0.1 != nil }?.0.title == "Plan offsite")
    }
}
