import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// StructuredQueries' "Date and time functions" article in its spelling: the current time moved by a
/// modifier, a column moved by modifiers, the year of a date and `strftime`. Each test shows the rows.
@Suite("Article: date and time functions")
struct DateTimeFunctionsArticleTests {
    @Table("reminders")
    struct Reminder: Equatable {
        let id: Int
        var createdAt: Date
    }

    @Table("timestamps")
    struct Timestamp: Equatable {
        let id: Int
        @Column(as: Date.UnixTimeRepresentation.self)
        var startedAt: Date
    }

    static let day: TimeInterval = 86_400
    // 2024-01-31 12:00:00 UTC.
    static let lastOfJanuary = Date(timeIntervalSince1970: 1_706_702_400)

    static func database() throws -> Connection {
        let db = try Connection(path: ":memory:")
        try db.execute(#"CREATE TABLE "reminders" ("id" INTEGER PRIMARY KEY, "createdAt" REAL NOT NULL)"#)
        try db.execute(#"CREATE TABLE "timestamps" ("id" INTEGER PRIMARY KEY, "startedAt" INTEGER NOT NULL)"#)
        try Reminder.insert {
            Reminder(id: 1, createdAt: Date().addingTimeInterval(-2 * day))
            Reminder(id: 2, createdAt: Date().addingTimeInterval(-30 * day))
            Reminder(id: 3, createdAt: lastOfJanuary)
        }.execute(db)
        try Timestamp.insert { Timestamp(id: 1, startedAt: Date(timeIntervalSince1970: 1_704_067_200)) }.execute(db)
        return db
    }

    @Test func theCurrentTimeMovedBackAWeek() throws {
        let db = try Self.database()
        let recent = Reminder.where { $0.createdAt > .now(.days(-7)) }
        #expect(try recent.fetchAll(db).map(\.id) == [1])
    }

    @Test func aColumnMovedByModifiers() throws {
        let db = try Self.database()
        let weekBefore = Reminder.where { $0.id == 3 }.select { $0.createdAt(.startOfDay.days(-7)) }
        // 2024-01-24 00:00:00 UTC.
        #expect(try weekBefore.fetchOne(db) == Date(timeIntervalSince1970: 1_706_054_400))

        let nextMonth = Timestamp.select { $0.startedAt(.months(1)) }
        // 2024-02-01 00:00:00 UTC.
        #expect(try nextMonth.fetchOne(db) == Date(timeIntervalSince1970: 1_706_745_600))
    }

    @Test func theYearAndAFormattedDate() throws {
        let db = try Self.database()
        #expect(try Reminder.where { $0.id == 3 }.select { $0.createdAt.year }.fetchOne(db) == 2024)
        #expect(try Reminder.where { $0.id == 3 }.select { $0.createdAt.strftime("%Y-%m") }.fetchOne(db) == "2024-01")
    }
}
