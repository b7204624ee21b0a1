import BoutiqueDB
import Foundation

/// `CASE`, aggregate options, casts, date and JSON functions in the shapes StructuredQueries users
/// write them.
public enum ExpressionFamilyShapes {
    /// Each reminder's priority as a word, with a fallback for none.
    public static func priorityWords() -> Select<Reminder.TableColumns, (String, String)> {
        Reminder.all.select {
            ($0.title, Case($0.priority).when(Priority.low, then: "low").when(Priority.medium, then: "medium").else("high"))
        }
    }

    /// The titles of open reminders, NULL for done ones (no `else`).
    public static func openTitles() -> Select<Reminder.TableColumns, String?> {
        Reminder.all.select { Case().when(!$0.isDone, then: $0.title) }
    }

    /// Per list: done reminders, summed estimates of open ones, and the open titles.
    public static func listProgress() -> Select<Reminder.TableColumns, (Int, Int, Int?, String?)> {
        Reminder
            .all.group { $0.listID }
            .select {
                (
                    $0.listID, $0.id.count(filter: $0.isDone), $0.estimatedMinutes.sum(filter: !$0.isDone),
                    Case().when(!$0.isDone, then: $0.title).groupConcat(", ")
                )
            }
    }

    /// Every option of the aggregates that take them.
    public static func aggregateOptions() -> Select<Reminder.TableColumns, (Double?, Int?, Int?, Double, String?, Int)> {
        Reminder.all.select {
            (
                $0.estimatedMinutes.avg(filter: $0.isDone), $0.estimatedMinutes.max(filter: !$0.isDone),
                $0.estimatedMinutes.min(filter: !$0.isDone), $0.estimatedMinutes.total(distinct: true),
                $0.title.groupConcat(distinct: true, filter: $0.isDone), .count(filter: $0.isDone)
            )
        }
    }

    /// Titles ordered inside the aggregate (SQLite 3.44 and later).
    public static func orderedTitles() -> Select<Reminder.TableColumns, (String?, String?, [String])> {
        Reminder.all.select {
            (
                $0.title.groupConcat(", ", order: $0.title.desc()), $0.title.groupConcat(distinct: true, order: $0.title),
                $0.title.jsonGroupArray(order: $0.title, filter: $0.isDone)
            )
        }
    }

    /// Casts, to a type and to an optional one.
    public static func casts() -> Select<Reminder.TableColumns, (String, String?, Double?, String?)> {
        Reminder.all.select {
            ($0.id.cast(as: String.self), $0.estimatedMinutes.cast(as: String.self), $0.estimatedMinutes.cast(as: Double.self),
             $0.notes.cast(as: String?.self))
        }
    }

    /// Reminders due within a week of a date, with the due date's year and month.
    public static func dueWithinAWeek(of date: Date) -> Select<Event.TableColumns, (String, Int, Int, String?)> {
        Event
            .where { $0.startsAt < $0.startsAt(.days(7)) && $0.startsAt(.startOfDay) >= date }
            .select { ($0.title, $0.startsAt.year, $0.startsAt.month, $0.startsAt.strftime("%Y-%m-%d")) }
    }

    /// Events that have started.
    public static func started() -> Select<Event.TableColumns, Event> {
        Event.where { $0.startsAt <= .now }
    }

    /// Every title as one array, and the tag counts.
    public static func titlesAndTagCounts() -> Select<Event.TableColumns, ([String], [[String]], Int)> {
        Event.all.select { ($0.title.jsonGroupArray(), $0.tags.jsonGroupArray(), $0.tags.jsonArrayLength().sum() ?? 0) }
    }
}

/// An event with its tags stored as a JSON array; `Codable`, as models often are.
@Table
public struct Event: Sendable, Equatable, Codable {
    public let id: Int
    public var title: String
    public var startsAt: Date
    @Column(as: [String].JSONRepresentation.self) public var tags: [String] = []
    @Column(as: JSONRepresentation<[String]>.self) public var speakers: [String] = []

    /// The generic spelling still names the JSON representation inside a `Codable` model.
    public static let speakersRepresentation = JSONRepresentation<[String]>.self

    public init(id: Int, title: String, startsAt: Date, tags: [String] = [], speakers: [String] = []) {
        self.id = id
        self.title = title
        self.startsAt = startsAt
        self.tags = tags
        self.speakers = speakers
    }
}

// An app's own extensions of query value types call Foundation's date API unqualified. Swift's
// `max(_:_:)` and `min(_:_:)` are written `Swift.max` and `Swift.min` there: the `max()` and `min()`
// aggregates are methods of every expression, `Int` included, and hide them, as in StructuredQueries.
extension Int {
    /// The larger, with Swift's `max(_:_:)`.
    public func atLeast(_ other: Int) -> Int { Swift.max(self, other) }

    /// The smaller, with Swift's `min(_:_:)`.
    public func atMost(_ other: Int) -> Int { Swift.min(self, other) }
}

extension Date {
    /// The calendar year, from Foundation's calendar.
    public var calendarYear: Int { Calendar(identifier: .gregorian).component(.year, from: self) }

    /// Later by a number of days, with `Date.addingTimeInterval`.
    public func later(days: Int) -> Date { addingTimeInterval(Double(days) * 86_400) }
}

extension Date {
    /// The year formatted by the C library's `strftime`.
    public var cFormattedYear: String {
        var seconds = time_t(timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 8)
        _ = strftime(&buffer, buffer.count, "%Y", &parts)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
