import BoutiqueSQLite

/// A database function returning one value per call.
///
/// `@DatabaseFunction` on a function makes one, `$exclaim`:
///
/// ```swift
/// @DatabaseFunction
/// func exclaim(_ text: String) -> String { text + "!" }
///
/// options.prepareDatabase { conn in try conn.add(function: $exclaim) }
/// Reminder.select { $exclaim($0.title) }      // SELECT "exclaim"("reminder"."title") FROM "reminder"
/// ```
///
/// A type can also conform by hand: ``invoke(_:)`` reads the arguments in order, each with the
/// representation its column would be read with, and returns the result's database value.
///
/// ```swift
/// struct Exclaim: ScalarDatabaseFunction {
///     let name = "exclaim"
///     let argumentCount = 1
///     let isDeterministic = true
///     func invoke(_ arguments: inout RowDecoder) throws -> DatabaseValue {
///         String.encode(try arguments.decode(String.self) + "!")
///     }
/// }
/// ```
public protocol ScalarDatabaseFunction: DatabaseFunction, Sendable {
    /// Computes the result from the arguments SQLite passed, read left to right from `arguments` as the
    /// columns of one row. An error thrown here, an argument of the wrong type included, fails the
    /// statement that called the function, with the error's message.
    func invoke(_ arguments: inout RowDecoder) throws -> DatabaseValue
}
