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
}
