import BoutiqueSQLite

/// A Swift function SQLite can call by name: its SQL name, how many arguments it takes and whether
/// the same arguments always give the same result.
public protocol DatabaseFunction {
    /// The name SQL calls it by.
    var name: String { get }

    /// How many arguments it takes.
    var argumentCount: Int { get }

    /// The same arguments always give the same result, so SQLite may call it fewer times and allow it
    /// in indexes, generated columns and `CHECK` constraints.
    var isDeterministic: Bool { get }
}

/// A database function returning one value per call.
///
/// ```swift
/// struct Exclaim: ScalarDatabaseFunction {
///     let name = "exclaim"
///     let argumentCount = 1
///     let isDeterministic = true
///     func invoke(_ arguments: [DatabaseValue]) throws -> DatabaseValue {
///         .text(try String(functionArgument: arguments[0]) + "!")
///     }
/// }
/// ```
public protocol ScalarDatabaseFunction: DatabaseFunction, Sendable {
    /// Computes the result from the arguments SQLite passed. An error thrown here fails the statement
    /// that called the function, with the error's message.
    func invoke(_ arguments: [DatabaseValue]) throws -> DatabaseValue
}

extension DatabaseFunction {
    /// `"name"(arguments…)`: a call of the function in a query.
    public func callFragment(_ arguments: [QueryFragment]) -> QueryFragment {
        QueryFragment.identifier(name) + "(" + arguments.joined(separator: ", ") + ")"
    }
}
