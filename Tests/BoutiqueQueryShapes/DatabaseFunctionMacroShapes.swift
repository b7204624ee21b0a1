import BoutiqueDB
import Foundation
import Synchronization

// Swift functions made callable from SQL with `@DatabaseFunction`, the way StructuredQueries' users
// write them, and the queries that call them as `$name(…)`.

/// Appends `!`.
@DatabaseFunction(isDeterministic: true)
public func shout(_ text: String) -> String {
    text + "!"
}

/// The square root of a number of minutes; refuses negative numbers with its own message.
@DatabaseFunction("checked_sqrt", isDeterministic: true)
public func checkedSquareRoot(_ minutes: Int?) throws -> Double? {
    guard let minutes else { return nil }
    guard minutes >= 0 else { throw SQLFunctionError("checked_sqrt: \(minutes) is negative") }
    return Double(minutes).squareRoot()
}

/// Labels, a default value, and arguments of several types.
@DatabaseFunction
public func summary(title: String, due dueDate: Date?, done: Bool = false, id: UUID? = nil) -> String {
    let due = dueDate.map { "due \(Int($0.timeIntervalSince1970))" } ?? "no date"
    return "\(title) (\(due)\(done ? ", done" : "")\(id == nil ? "" : ", tagged"))"
}

/// A JSON array in and out, through `as:`.
@DatabaseFunction(as: (([String].JSONRepresentation) -> [String].JSONRepresentation).self)
public func exclaimAll(_ strings: [String]) -> [String] {
    strings.map { $0 + "!" }
}

/// A whole row as the argument: `$isLate($0, at: date)` passes every column of the reminder.
@DatabaseFunction
public func isLate(_ reminder: Reminder, at date: Date) -> Bool {
    guard let due = reminder.dueDate else { return false }
    return !reminder.isDone && due < date
}

/// An enum in and out, as its raw value.
@DatabaseFunction
public func raised(_ priority: Priority?) -> Priority? {
    switch priority {
    case .low: .medium
    case .medium, .high: .high
    case nil: nil
    }
}

/// Bytes in, a count out.
@DatabaseFunction
public func byteCount(_ data: Data) -> Int {
    data.count
}

/// The most frequent priority of a group: an aggregate.
@DatabaseFunction
public func mode(priority priorities: some Sequence<Priority?>) -> Priority? {
    var counts: [Priority: Int] = [:]
    for case let priority? in priorities { counts[priority, default: 0] += 1 }
    return counts.max { ($0.value, $0.key.rawValue) < ($1.value, $1.key.rawValue) }?.key
}

/// An aggregate of two arguments per row, the sequence's elements written as a tuple.
@DatabaseFunction
public func joined(_ rows: some Sequence<(String, separator: String)>) -> String {
    var text = ""
    for (index, row) in rows.enumerated() { text += (index == 0 ? "" : row.separator) + row.0 }
    return text
}

/// An aggregate that fails the statement.
@DatabaseFunction
public func strictTotal(_ minutes: some Sequence<Int?>) throws -> Int {
    try minutes.reduce(0) { total, value in
        guard let value else { throw SQLFunctionError("strictTotal: a reminder has no estimate") }
        return total + value
    }
}

/// A computed property: a function without arguments that is itself an expression, `$answer`.
@DatabaseFunction(isDeterministic: true)
public var answer: Int {
    42
}

/// Functions that are members of types.
public enum TextFunctions {
    /// A static method: `TextFunctions.$reversed(…)`.
    @DatabaseFunction
    public static func reversed(_ text: String) -> String {
        String(text.reversed())
    }
}

/// A method of a value: `greeter.$greet(…)` calls it on this greeter.
public struct Greeter: Sendable {
    public let greeting: String

    public init(greeting: String) { self.greeting = greeting }

    /// `greeting, name`.
    @DatabaseFunction
    public func greet(_ name: String) -> String {
        "\(greeting), \(name)"
    }
}

/// A method of a class, which the function keeps weakly; its calls are counted.
public final class CallLog: Sendable {
    private let calls = Mutex<[String]>([])

    public init() {}

    /// The values it was called with, in order.
    public var values: [String] { calls.withLock { $0 } }

    /// Records `value`; SQL sees NULL.
    @DatabaseFunction
    public func record(_ value: String) {
        calls.withLock { $0.append(value) }
    }
}

/// The queries that call them.
public enum DatabaseFunctionMacroShapes {
    /// Options adding every function above on every connection; `log` and `greeter` are the instances
    /// whose methods are added.
    public static func options(log: CallLog, greeter: Greeter) -> BoutiqueDB.Options {
        var options = BoutiqueDB.Options()
        options.prepareDatabase { conn in
            try conn.add(function: $shout)
            try conn.add(function: $checkedSquareRoot)
            try conn.add(function: $summary)
            try conn.add(function: $exclaimAll)
            try conn.add(function: $isLate)
            try conn.add(function: $raised)
            try conn.add(function: $byteCount)
            try conn.add(function: $mode)
            try conn.add(function: $joined)
            try conn.add(function: $strictTotal)
            try conn.add(function: $answer)
            try conn.add(function: TextFunctions.$reversed)
            try conn.add(function: greeter.$greet)
            try conn.add(function: log.$record)
        }
        return options
    }

    /// A function in the select list.
    public static func shoutedTitles() -> Select<Reminder.TableColumns, String> {
        Reminder.all.select { $shout($0.title) }
    }

    /// A function in a `WHERE` clause.
    public static func reminders(shoutedAs title: String) -> Select<Reminder.TableColumns, Reminder> {
        Reminder.where { $shout($0.title) == title }
    }

    /// A function in an `UPDATE`.
    public static func shoutTitle(of id: Int) -> Update<Reminder> {
        Reminder.where { $0.id == id }.update { $0.title = $shout($0.title) }
    }

    /// A throwing function of an optional column, under its own SQL name.
    public static func squareRoots() -> Select<Reminder.TableColumns, Double?> {
        Reminder.all.order { $0.id }.select { $checkedSquareRoot($0.estimatedMinutes) }
    }

    /// Labeled arguments, one left to its default.
    public static func summaries() -> Select<Reminder.TableColumns, String> {
        Reminder.all.order { $0.id }.select { $summary(title: $0.title, due: $0.dueDate, done: $0.isDone) }
    }

    /// A JSON array through the function: the titles, aggregated by SQLite, each exclaimed.
    public static func exclaimedTitleArray() -> Select<Reminder.TableColumns, [String]> {
        Reminder.where { $0.title != "" }.select { $exclaimAll($0.title.jsonGroupArray()) }
    }

    /// A whole row and a date.
    public static func lateReminders(at date: Date) -> Select<Reminder.TableColumns, Reminder> {
        Reminder.where { $isLate($0, at: date) }
    }

    /// An enum in, an enum out.
    public static func raisedPriorities() -> Select<Reminder.TableColumns, Priority?> {
        Reminder.all.order { $0.id }.select { $raised($0.priority) }
    }

    /// The aggregate per list.
    public static func modePerList() -> Select<Reminder.TableColumns, (Int, Priority?)> {
        Reminder.all.group(by: \.listID).order { $0.listID }.select { ($0.listID, $mode(priority: $0.priority)) }
    }

    /// The aggregate over the open reminders only.
    public static func modeOfOpenReminders() -> Select<Reminder.TableColumns, Priority?> {
        Reminder.all.select { $mode(priority: $0.priority, filter: !$0.isDone) }
    }

    /// The aggregate of two arguments.
    public static func joinedTitles() -> Select<Reminder.TableColumns, String> {
        Reminder.where { $0.title != "" }.select { $joined($0.title, separator: " / ") }
    }

    /// A throwing aggregate.
    public static func strictTotals() -> Select<Reminder.TableColumns, Int> {
        Reminder.all.select { $strictTotal($0.estimatedMinutes) }
    }

    /// The property as an expression.
    public static func answers() -> Select<Reminder.TableColumns, Int> {
        Reminder.where { $0.id == 1 }.select { _ in $answer }
    }

    /// A static method, a method of a value and a method of a class.
    public static func members(greeter: Greeter, log: CallLog) -> Select<Reminder.TableColumns, (String, String)> {
        Reminder.where { $0.id == 2 }.select { (TextFunctions.$reversed($0.title), greeter.$greet($0.title)) }
    }

    /// A function returning nothing, called for its effect in SQL text.
    public static func recordTitles(_ log: CallLog) -> SQLQuery<Void> {
        #sql("SELECT \(log.$record(Reminder.columns.title)) FROM \(Reminder.self) ORDER BY \(Reminder.columns.id)")
    }

    /// A function returning nothing, called from a trigger's body for each new reminder, as
    /// StructuredQueries' triggers article calls one: `Values` of the call, once as it is and once of
    /// an expression of the new row.
    public static func recordInsertedTitles(_ log: CallLog) -> TemporaryTrigger<Reminder> {
        Reminder.createTemporaryTrigger(
            "record_inserted_titles",
            after: .insert { new in
                Values(log.$record(new.title))
                Values(log.$record(new.title.upper()))
            }
        )
    }

    /// The call on its own, as a statement: `SELECT "record"(?)`.
    public static func recordOne(_ log: CallLog, _ value: String) -> Values<Void> {
        Values(log.$record(value))
    }
}
