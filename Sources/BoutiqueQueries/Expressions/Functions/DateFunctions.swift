import Foundation

// SQLite's date and time functions on date expressions, as StructuredQueries spells them: a date
// called with a modifier (`$0.dueDate(.days(1))`), `strftime`, the components (`year`, `month`, …)
// and `.now`. Each representation says how SQLite reads its stored value as a time value, and how to
// turn a time value back into what it stores, so a modified date compares and decodes as the column's
// own type.
//
// SQLite's `date`, `time`, `datetime`, `julianday` and `unixepoch` are not methods: StructuredQueries
// has no such spellings, and a `time()` method on every date would hide the C library's `time(_:)`
// inside the app's own `Date` extensions. `strftime` covers what they format; it is a method of
// columns, function results and moved dates only, for the same reason (see below).

/// A representation of `Date` that SQLite's date functions can read and produce.
public protocol QueryDateRepresentation: QueryRepresentable where QueryOutput == Date {
    /// The arguments that make SQLite read `value` as a time value: the value and any modifier
    /// (`'unixepoch'` for seconds since 1970).
    static func timeValueArguments(_ value: QueryFragment) -> [QueryFragment]

    /// SQL that turns a time value (the arguments of a date function) into this representation's
    /// stored value.
    static func storedValue(_ timeValueArguments: [QueryFragment]) -> QueryFragment
}

extension Date: QueryDateRepresentation {
    /// Seconds since 1970, REAL, as `Date` is stored.
    public static func timeValueArguments(_ value: QueryFragment) -> [QueryFragment] { [value, QueryFragment("'unixepoch'")] }

    /// Back to REAL seconds since 1970 through the Julian day, which keeps the milliseconds
    /// (`unixepoch`'s `'subsec'` needs SQLite 3.42).
    public static func storedValue(_ timeValueArguments: [QueryFragment]) -> QueryFragment {
        "((" + Operators.function("julianday", timeValueArguments) + " - 2440587.5) * 86400.0)"
    }
}

extension Date.ISO8601Representation: QueryDateRepresentation {
    /// ISO-8601 text, which SQLite reads as it is.
    public static func timeValueArguments(_ value: QueryFragment) -> [QueryFragment] { [value] }

    /// Back to the representation's own text form, `2026-11-29T18:20:00.000Z`.
    public static func storedValue(_ timeValueArguments: [QueryFragment]) -> QueryFragment {
        Operators.function("strftime", [QueryFragment("'%Y-%m-%dT%H:%M:%fZ'")] + timeValueArguments)
    }
}

extension Date.JulianDayRepresentation: QueryDateRepresentation {
    /// A Julian day number, which SQLite reads as a time value as it is.
    public static func timeValueArguments(_ value: QueryFragment) -> [QueryFragment] { [value] }

    /// Back to a Julian day number.
    public static func storedValue(_ timeValueArguments: [QueryFragment]) -> QueryFragment {
        Operators.function("julianday", timeValueArguments)
    }
}

extension Date.UnixTimeRepresentation: QueryDateRepresentation {
    /// Whole seconds since 1970, INTEGER.
    public static func timeValueArguments(_ value: QueryFragment) -> [QueryFragment] { [value, QueryFragment("'unixepoch'")] }

    /// Back to whole seconds since 1970.
    public static func storedValue(_ timeValueArguments: [QueryFragment]) -> QueryFragment {
        Operators.function("unixepoch", timeValueArguments)
    }
}

/// A date moved by modifiers, or the current time (`.now`): the result of calling a date expression
/// with a ``DateTimeModifier``. It reads as the representation it was made from, and keeps its time
/// value arguments so that further functions apply to them rather than to the converted value.
public struct ModifiedDate<QueryValue: QueryDateRepresentation>: QueryExpression, DateTimeArgumentsProviding {
    var timeValueArguments: [QueryFragment]

    public var queryFragment: QueryFragment { QueryValue.storedValue(timeValueArguments) }
}

protocol DateTimeArgumentsProviding {
    var timeValueArguments: [QueryFragment] { get }
}

extension QueryExpression where QueryValue: QueryDateRepresentation {
    var dateTimeArguments: [QueryFragment] {
        (self as? any DateTimeArgumentsProviding)?.timeValueArguments ?? QueryValue.timeValueArguments(queryFragment)
    }

    /// The date moved by `modifier`: `$0.dueDate(.days(1))`, `$0.dueDate(.startOfMonth)`.
    public func callAsFunction(_ modifier: DateTimeModifier) -> ModifiedDate<QueryValue> {
        ModifiedDate(timeValueArguments: dateTimeArguments + modifier.fragments)
    }

    func formatted(_ format: String) -> SQLExpression<String?> {
        SQLExpression(Operators.function("strftime", [String.bound(format)] + dateTimeArguments))
    }

    /// The year, in UTC.
    public var year: SQLExpression<Int> { component("%Y", as: "INTEGER") }
    /// The month, 1 to 12, in UTC.
    public var month: SQLExpression<Int> { component("%m", as: "INTEGER") }
    /// The day of the month, 1 to 31, in UTC.
    public var day: SQLExpression<Int> { component("%d", as: "INTEGER") }
    /// The hour, 0 to 23, in UTC.
    public var hour: SQLExpression<Int> { component("%H", as: "INTEGER") }
    /// The minute, 0 to 59.
    public var minute: SQLExpression<Int> { component("%M", as: "INTEGER") }
    /// The whole seconds, 0 to 59.
    public var second: SQLExpression<Int> { component("%S", as: "INTEGER") }
    /// The seconds with their milliseconds, `SS.SSS`.
    public var fractionalSecond: SQLExpression<Double> { component("%f", as: "REAL") }
    /// The day of the week, 0 (Sunday) to 6, in UTC.
    public var weekday: SQLExpression<Int> { component("%w", as: "INTEGER") }
    /// The day of the year, 1 to 366, in UTC.
    public var dayOfYear: SQLExpression<Int> { component("%j", as: "INTEGER") }

    private func component<Value>(_ format: String, as type: String) -> SQLExpression<Value> {
        SQLExpression("CAST(" + Operators.function("strftime", [QueryFragment("'" + format + "'")] + dateTimeArguments) + " AS " + type + ")")
    }
}

// `strftime` is a method of columns, function results and moved dates, not of every date expression:
// on `Date` values (which are expressions too) it would hide the C library's `strftime` inside the
// app's own `Date` extensions.

extension TableColumn where Value: QueryDateRepresentation {
    /// `strftime(format, x)`: the date formatted by SQLite (`%Y`, `%m`, `%d`, `%H`, `%M`, `%S`, `%f`,
    /// `%j`, `%w`, `%s`, …), in UTC; NULL when the value is not a date SQLite can read.
    public func strftime(_ format: String) -> SQLExpression<String?> { formatted(format) }
}

extension SQLExpression where QueryValue: QueryDateRepresentation {
    /// `strftime(format, x)`: the date formatted by SQLite, in UTC; NULL when the value is not a date
    /// SQLite can read.
    public func strftime(_ format: String) -> SQLExpression<String?> { formatted(format) }
}

extension ModifiedDate {
    /// `strftime(format, x)` of the moved date: `$0.startsAt(.days(1)).strftime("%Y-%m-%d")`.
    public func strftime(_ format: String) -> SQLExpression<String?> { formatted(format) }
}

extension QueryExpression where Self == ModifiedDate<Date> {
    /// The current time, as a `Date` column stores it: `$0.dueDate < .now`.
    public static var now: Self { ModifiedDate(timeValueArguments: [QueryFragment("'now'")]) }
}

extension QueryExpression where Self == ModifiedDate<Date.ISO8601Representation> {
    /// The current time, as ISO-8601 text.
    public static var now: Self { ModifiedDate(timeValueArguments: [QueryFragment("'now'")]) }
}

extension QueryExpression where Self == ModifiedDate<Date.UnixTimeRepresentation> {
    /// The current time, as whole seconds since 1970.
    public static var now: Self { ModifiedDate(timeValueArguments: [QueryFragment("'now'")]) }
}

/// Modifiers of SQLite's date functions, applied in order: `.days(1)`, `.startOfMonth.months(1)`.
///
/// Each modifier is bound as a parameter, like every value.
public struct DateTimeModifier: Sendable {
    var fragments: [QueryFragment] = []

    /// `count` years later (earlier when negative).
    public static func years(_ count: Int) -> Self { Self().years(count) }
    /// `count` months later (earlier when negative).
    public static func months(_ count: Int) -> Self { Self().months(count) }
    /// `count` days later (earlier when negative).
    public static func days(_ count: Int) -> Self { Self().days(count) }
    /// `count` hours later (earlier when negative).
    public static func hours(_ count: Int) -> Self { Self().hours(count) }
    /// `count` minutes later (earlier when negative).
    public static func minutes(_ count: Int) -> Self { Self().minutes(count) }
    /// `count` seconds later (earlier when negative).
    public static func seconds(_ count: Double) -> Self { Self().seconds(count) }
    /// `count` milliseconds later (earlier when negative).
    public static func milliseconds(_ count: Int) -> Self { Self().milliseconds(count) }
    /// Midnight at the start of the day.
    public static var startOfDay: Self { Self().startOfDay }
    /// Midnight at the start of the month.
    public static var startOfMonth: Self { Self().startOfMonth }
    /// Midnight at the start of the year.
    public static var startOfYear: Self { Self().startOfYear }
    /// The next day (or the same) that is weekday `day`, 0 being Sunday.
    public static func weekday(_ day: Int) -> Self { Self().weekday(day) }

    /// Then `count` years later.
    public func years(_ count: Int) -> Self { appending("\(count) years") }
    /// Then `count` months later.
    public func months(_ count: Int) -> Self { appending("\(count) months") }
    /// Then `count` days later.
    public func days(_ count: Int) -> Self { appending("\(count) days") }
    /// Then `count` hours later.
    public func hours(_ count: Int) -> Self { appending("\(count) hours") }
    /// Then `count` minutes later.
    public func minutes(_ count: Int) -> Self { appending("\(count) minutes") }
    /// Then `count` seconds later. A count that is not finite makes the date NULL.
    public func seconds(_ count: Double) -> Self {
        appending(count.isFinite ? "\(count) seconds" : "not a number of seconds")
    }
    /// Then `count` milliseconds later.
    public func milliseconds(_ count: Int) -> Self {
        let fraction = String(count.magnitude % 1000 + 1000).dropFirst()
        return appending("\(count < 0 ? "-" : "")\(count.magnitude / 1000).\(fraction) seconds")
    }
    /// Then midnight at the start of the day.
    public var startOfDay: Self { appending("start of day") }
    /// Then midnight at the start of the month.
    public var startOfMonth: Self { appending("start of month") }
    /// Then midnight at the start of the year.
    public var startOfYear: Self { appending("start of year") }
    /// Then the next day (or the same) that is weekday `day`, 0 being Sunday.
    public func weekday(_ day: Int) -> Self { appending("weekday \(day)") }

    private func appending(_ modifier: String) -> Self {
        Self(fragments: fragments + [String.bound(modifier)])
    }
}
