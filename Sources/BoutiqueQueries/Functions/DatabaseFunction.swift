import BoutiqueSQLite

/// A Swift function SQLite can call by name: its SQL name, how many arguments it takes and whether
/// the same arguments always give the same result.
///
/// Write the function in Swift and mark it `@DatabaseFunction`: the macro makes the conforming type,
/// either a ``ScalarDatabaseFunction`` or, for a function of a sequence, an
/// ``AggregateDatabaseFunction``.
public protocol DatabaseFunction {
    /// The name SQL calls it by.
    var name: String { get }

    /// How many arguments it takes (`-1`: any number).
    var argumentCount: Int { get }

    /// The same arguments always give the same result, so SQLite may call it fewer times and allow it
    /// in indexes, generated columns and `CHECK` constraints.
    var isDeterministic: Bool { get }
}

extension DatabaseFunction {
    /// `"name"(arguments…)`: a call of the function in a query.
    public func callFragment(_ arguments: [QueryFragment]) -> QueryFragment {
        QueryFragment.identifier(name) + "(" + arguments.joined(separator: ", ") + ")"
    }
}
