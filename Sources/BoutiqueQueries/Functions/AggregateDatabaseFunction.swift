import BoutiqueSQLite

/// A database function computing one value from the rows of a group, as `sum` and `max` do.
///
/// `@DatabaseFunction` on a function taking `some Sequence<Element>` makes one, `$mode`:
///
/// ```swift
/// @DatabaseFunction
/// func mode(priority priorities: some Sequence<Priority?>) -> Priority? {
///     var counts: [Priority: Int] = [:]
///     for case let priority? in priorities { counts[priority, default: 0] += 1 }
///     return counts.max { $0.value < $1.value }?.key
/// }
///
/// options.prepareDatabase { conn in try conn.add(function: $mode) }
/// Reminder.group(by: \.listID).select { ($0.listID, $mode(priority: $0.priority)) }
/// ```
///
/// Each row's arguments are read by ``step(_:)`` into an ``Element`` as the rows arrive; once the group
/// ends, ``invoke(_:)`` computes the result from all of them, so a group's elements are held in memory
/// until then.
public protocol AggregateDatabaseFunction: DatabaseFunction, Sendable {
    /// What one row's arguments become: a value, or a tuple for several arguments.
    associatedtype Element

    /// Reads one row's arguments, left to right, as the columns of one row. An error, an argument of
    /// the wrong type included, fails the statement that called the function, with its message.
    func step(_ arguments: inout RowDecoder) throws -> Element

    /// Computes the group's result from its elements, in the order SQLite stepped the rows (none, for
    /// an empty group). An error fails the statement that called the function, with its message.
    func invoke(_ elements: [Element]) throws -> DatabaseValue
}

extension AggregateDatabaseFunction {
    /// `"name"(DISTINCT arguments ORDER BY order) FILTER (WHERE filter)`: a call of the aggregate in a
    /// query, with the options SQLite's own aggregates take.
    ///
    /// `ORDER BY` inside the call needs SQLite 3.44 or later; older versions refuse the statement
    /// (`near "ORDER": syntax error`). `DISTINCT` takes exactly one argument.
    public func callFragment(
        _ arguments: [QueryFragment], distinct: Bool, order: QueryFragment?, filter: QueryFragment?
    ) -> QueryFragment {
        AggregateCall.render(
            SQLIdentifier.quote(name), distinct: distinct, arguments, order: order, filter: filter)
    }
}
