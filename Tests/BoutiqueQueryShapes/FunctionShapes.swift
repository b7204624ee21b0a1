import BoutiqueDB
import BoutiqueSQLite

/// A Swift database function written out as a conforming type, without the macro: `exclaim(text)`
/// appends `!`.
public struct ExclaimFunction: ScalarDatabaseFunction {
    public let name = "exclaim"
    public let argumentCount = 1
    public let isDeterministic = true

    public init() {}

    public func invoke(_ arguments: inout RowDecoder) throws -> DatabaseValue {
        String.encode(try arguments.decode(String.self) + "!")
    }

    /// `"exclaim"(text)` in a query.
    public func callAsFunction(_ text: some QueryExpression<String>) -> SQLExpression<String> {
        SQLExpression(callFragment([text.queryFragment]))
    }
}

/// A function that refuses negative numbers with its own message; NULL gives NULL.
public struct CheckedSquareRootFunction: ScalarDatabaseFunction {
    public let name = "checkedSqrt"
    public let argumentCount = 1
    public let isDeterministic = true

    public init() {}

    public func invoke(_ arguments: inout RowDecoder) throws -> DatabaseValue {
        guard let value = try arguments.decode(Double?.self) else { return .null }
        guard value >= 0 else { throw SQLFunctionError("checkedSqrt: \(value) is negative") }
        return value.squareRoot().functionResult
    }

    /// `"checkedSqrt"(value)` in a query.
    public func callAsFunction(_ value: some QueryExpression<Int?>) -> SQLExpression<Double?> {
        SQLExpression(callFragment([value.queryFragment]))
    }
}

/// The shapes users write with database functions.
public enum FunctionShapes {
    public static let exclaim = ExclaimFunction()
    public static let checkedSqrt = CheckedSquareRootFunction()

    /// Options adding both functions on every connection.
    public static func options() -> BoutiqueDB.Options {
        var options = BoutiqueDB.Options()
        options.prepareDatabase { conn in
            try conn.add(function: exclaim)
            try conn.add(function: checkedSqrt)
        }
        return options
    }

    /// A function in the select list.
    public static func exclaimedTitles() -> Select<Reminder.TableColumns, String> {
        Reminder.all.select { exclaim($0.title) }
    }

    /// A function in a `WHERE` clause.
    public static func remindersExclaimed(as title: String) -> Select<Reminder.TableColumns, Reminder> {
        Reminder.where { exclaim($0.title) == title }
    }

    /// A function of an optional column, which may fail.
    public static func squareRootOfMinutes() -> Select<Reminder.TableColumns, Double?> {
        Reminder.all.select { checkedSqrt($0.estimatedMinutes) }
    }

    /// A function in an `UPDATE`.
    public static func exclaimTitle(of id: Int) -> Update<Reminder> {
        Reminder.where { $0.id == id }.update { $0.title = exclaim($0.title) }
    }
}
