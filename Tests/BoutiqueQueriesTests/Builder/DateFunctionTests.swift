import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// A meeting whose start is stored three ways: seconds since 1970 (`Date`'s own), ISO-8601 text and
/// whole unix seconds.
@Table @BoutiqueTable
struct Meeting: Sendable, Equatable {
    let id: Int
    var title: String
    var startsAt: Date
    @Column(as: Date.ISO8601Representation.self) var startsAtText: Date
    @Column(as: Date.UnixTimeRepresentation.self) var startsAtSeconds: Date
}

/// 2026-11-29 18:20:30.250 UTC, a Sunday.
private let sundayEvening = Date(timeIntervalSince1970: 1_795_976_430.25)

private func makeMeetingsDatabase() throws -> Connection {
    let db = try Connection(path: ":memory:")
    try Meeting.createTable().execute(db)
    try Meeting.insert([
        Meeting(id: 1, title: "Planning", startsAt: sundayEvening, startsAtText: sundayEvening, startsAtSeconds: sundayEvening)
    ]).execute(db)
    return db
}

/// SQLite's date functions on each representation of `Date`: modifiers, `strftime` and components.
@Suite("Date functions")
struct DateFunctionTests {
    let db: Connection
    init() throws { db = try makeMeetingsDatabase() }

    @Test func modifiersMoveADateAndReadAsItsRepresentation() throws {
        let query = Meeting.find(1).select {
            ($0.startsAt(.days(1)), $0.startsAtText(.days(1)), $0.startsAtSeconds(.days(1)))
        }
        #expect(query.sql.hasPrefix(
            #"SELECT ((julianday("meeting"."startsAt", 'unixepoch', ?) - 2440587.5) * 86400.0), strftime('%Y-%m-%dT%H:%M:%fZ', "meeting"."startsAtText", ?), unixepoch("meeting"."startsAtSeconds", 'unixepoch', ?) FROM"#))
        #expect(query.bindings.prefix(3) == [.text("1 days"), .text("1 days"), .text("1 days")])
        let row = try #require(try query.fetchOne(db))
        let dayLater = sundayEvening.addingTimeInterval(86_400)
        #expect(abs(row.0.timeIntervalSince(dayLater)) < 0.001)
        #expect(abs(row.1.timeIntervalSince(dayLater)) < 0.001)
        #expect(row.2 == Date(timeIntervalSince1970: dayLater.timeIntervalSince1970.rounded(.down)))
    }

    @Test func modifiersChainInOrder() throws {
        let query = Meeting.find(1).select { $0.startsAt(.startOfMonth.months(1).days(-1)).strftime("%Y-%m-%d %H:%M") }
        #expect(query.sql.hasPrefix(#"SELECT strftime(?, "meeting"."startsAt", 'unixepoch', ?, ?, ?) FROM"#))
        #expect(query.bindings.prefix(4) == [.text("%Y-%m-%d %H:%M"), .text("start of month"), .text("1 months"), .text("-1 days")])
        #expect(try query.fetchOne(db) == "2026-11-30 00:00")
        let seconds = Meeting.find(1).select { $0.startsAtText(.milliseconds(-1_250).startOfDay.hours(9)).strftime("%H:%M:%f") }
        #expect(try seconds.fetchOne(db) == "09:00:00.000")
        let fraction = Meeting.find(1).select { $0.startsAtText(.milliseconds(-1_250)).strftime("%H:%M:%f") }
        #expect(try fraction.fetchOne(db) == "18:20:29.000")
    }

    @Test func componentsOfEveryRepresentation() throws {
        let query = Meeting.find(1).select {
            ($0.startsAt.year, $0.startsAt.month, $0.startsAt.day, $0.startsAtText.hour, $0.startsAtSeconds.minute,
             $0.startsAt.second, $0.startsAt.weekday, $0.startsAtText.dayOfYear)
        }
        #expect(query.sql.hasPrefix(#"SELECT CAST(strftime('%Y', "meeting"."startsAt", 'unixepoch') AS INTEGER), "#))
        let row = try #require(try query.fetchOne(db))
        #expect(row.0 == 2026 && row.1 == 11 && row.2 == 29)
        #expect(row.3 == 18 && row.4 == 20 && row.5 == 30)
        #expect(row.6 == 0 && row.7 == 333)
        #expect(try Meeting.find(1).select { $0.startsAtText.fractionalSecond }.fetchOne(db) == 30.25)
    }

    @Test func nowComparesWithStoredDates() throws {
        // Beside a stored date, `.now` is Foundation's `Date.now`, bound when the statement is built;
        // SQLite's own clock is `.now` where a date expression is expected, as in `.now(.days(1))`.
        let past = Meeting.where { $0.startsAt <= .now }.select(\.title)
        #expect(past.sql.contains(#"WHERE ("meeting"."startsAt" <= ?)"#))
        let pastText = Meeting.where { $0.startsAtText <= .now }.select(\.title)
        #expect(pastText.sql.contains(#"WHERE ("meeting"."startsAtText" <= ?)"#))
        let future = Meeting.where { $0.startsAtSeconds > ModifiedDate<Date.UnixTimeRepresentation>.now }.select(\.title)
        #expect(future.sql.contains(#"WHERE ("meeting"."startsAtSeconds" > unixepoch('now'))"#))
        let tomorrow = Meeting.where { $0.startsAt < .now(.days(1)) }.select(\.title)
        #expect(tomorrow.sql.contains(#"WHERE ("meeting"."startsAt" < ((julianday('now', ?) - 2440587.5) * 86400.0))"#))
        // The meeting's date is in 2026: whichever side of it the clock is, they agree.
        let isPast = Date() >= sundayEvening
        #expect(try past.fetchAll(db) == (isPast ? ["Planning"] : []))
        #expect(try pastText.fetchAll(db) == (isPast ? ["Planning"] : []))
        #expect(try future.fetchAll(db) == (isPast ? [] : ["Planning"]))
        #expect(try tomorrow.fetchAll(db) == (sundayEvening < Date().addingTimeInterval(86_400) ? ["Planning"] : []))
    }

    @Test func modifiedDatesCompare() throws {
        let query = Meeting.where { $0.startsAt(.startOfDay) < $0.startsAt && $0.startsAt < $0.startsAt(.hours(1)) }
        #expect(try query.fetchAll(db).map(\.id) == [1])
    }

    @Test func secondsThatAreNotFiniteGiveNull() throws {
        let query = Meeting.find(1).select { $0.startsAtText(.seconds(.infinity)).strftime("%Y") }
        #expect(try query.fetchOne(db) == .some(nil))
        #expect(try Meeting.find(1).select { $0.startsAtText(.seconds(1.5)).strftime("%f") }.fetchOne(db) == "31.750")
    }
}
