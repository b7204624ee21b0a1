import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// `cast(as:)`: `CAST(x AS type)` with the type the target representation declares.
@Suite("Casts")
struct CastTests {
    let db: Connection
    init() throws { db = try makeRemindersDatabase() }

    @Test func castsToTheTargetsSQLType() throws {
        let query = Reminder.find(3).select {
            ($0.id.cast(as: String.self), $0.id.cast(as: Double.self), $0.title.cast(as: Int.self), $0.isDone.cast(as: String.self))
        }
        #expect(query.sql.hasPrefix(
            #"SELECT CAST("reminder"."id" AS TEXT), CAST("reminder"."id" AS REAL), CAST("reminder"."title" AS INTEGER), CAST("reminder"."isDone" AS TEXT) FROM"#))
        let row = try #require(try query.fetchOne(db))
        #expect(row.0 == "3")
        #expect(row.1 == 3.0)
        // Text that does not start with a number casts to 0, never to NULL.
        #expect(row.2 == 0)
        #expect(row.3 == "0")
    }

    @Test func optionalStaysOptional() throws {
        let query = Reminder.order { $0.id }.select { $0.priority.cast(as: String.self) }
        #expect(query.sql.hasPrefix(#"SELECT CAST("reminder"."priority" AS TEXT) FROM"#))
        let texts: [String?] = try query.fetchAll(db)
        #expect(texts == ["2", nil, "3", "1", "2"])
        let same: [String?] = try Reminder.order { $0.id }.select { $0.priority.cast(as: String?.self) }.fetchAll(db)
        #expect(same == texts)
    }

    @Test func inferredFromContext() throws {
        let query = Reminder.find(4).select { $0.title.length().cast() as SQLExpression<Double> }
        #expect(query.sql.hasPrefix(#"SELECT CAST(length("reminder"."title") AS REAL) FROM"#))
        #expect(try query.fetchOne(db) == 12.0)
    }

    @Test func castInAComparison() throws {
        let query = Reminder.where { $0.priority.cast(as: String.self) == "3" }.select { $0.title }
        #expect(try query.fetchAll(db) == ["Email boss"])
    }
}
