import BoutiqueQueries
import BoutiqueSQLite
import Testing

@Suite("Select shorthands")
struct SelectShorthandTests {
    let db: Connection
    init() throws { db = try makeRemindersDatabase() }

    @Test func keyPathsStandForOneColumnClosures() throws {
        let titles = Reminder.where(\.isDone).order(by: \.title).select(\.title)
        #expect(titles.sql == #"SELECT "reminder"."title" FROM "reminder" WHERE "reminder"."isDone" ORDER BY "reminder"."title""#)
        #expect(try titles.fetchAll(db) == ["Haircut", "Laundry"])

        let lists = Reminder.all.group(by: \.listID).order(by: \.listID).select(\.listID)
        #expect(lists.sql == #"SELECT "reminder"."listID" FROM "reminder" GROUP BY "reminder"."listID" ORDER BY "reminder"."listID""#)
        #expect(try lists.fetchAll(db) == [1, 2])

        #expect(try Reminder.order(by: \.title).select(\.id).fetchAll(db) == [3, 1, 2, 5, 4])
    }

    /// A table groups its rows as a select does: `Reminder.group(by:)` is `Reminder.all.group(by:)`.
    @Test func aTableGroupsItsRows() throws {
        let counts = Reminder.group(by: \.listID).select { ($0.listID, $0.id.count()) }
        #expect(counts.sql == #"SELECT "reminder"."listID", count("reminder"."id") FROM "reminder" GROUP BY "reminder"."listID""#)
        #expect(try counts.fetchAll(db).map { [$0.0, $0.1] } == [[1, 3], [2, 2]])

        let pairs = Reminder.group { ($0.listID, $0.isDone) }.order { ($0.listID, $0.isDone) }.select { ($0.listID, $0.isDone, $0.id.count()) }
        #expect(pairs.sql.hasSuffix(#"GROUP BY "reminder"."listID", "reminder"."isDone" ORDER BY "reminder"."listID", "reminder"."isDone""#))
        #expect(try pairs.fetchAll(db).map(\.2).reduce(0, +) == 5)
    }
}
