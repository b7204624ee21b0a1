// What an aggregate call can carry besides its arguments, rendered in one place so that every
// aggregate spells DISTINCT, ORDER BY and FILTER alike:
//
//     name(DISTINCT arguments ORDER BY terms) FILTER (WHERE condition)
//
// FILTER needs SQLite 3.30, which every supported system has. ORDER BY inside the parentheses needs
// SQLite 3.44: older versions (this system's 3.40.1 among them) refuse the statement when it is
// prepared, with `near "ORDER": syntax error`, so an ordered aggregate fails loudly there rather than
// returning its values in some other order. Nothing rewrites it: there is no form on older versions
// whose order SQLite guarantees.

enum AggregateCall {
    /// The SQL of an aggregate call with its options.
    static func render(
        _ name: String,
        distinct: Bool = false,
        _ arguments: [QueryFragment],
        order: QueryFragment? = nil,
        filter: QueryFragment? = nil
    ) -> QueryFragment {
        var fragment = QueryFragment(name + "(" + (distinct ? "DISTINCT " : ""))
        fragment.append(arguments.joined(separator: ", "))
        if let order { fragment.append(" ORDER BY " + order) }
        fragment.append(")")
        if let filter { fragment.append(" FILTER (WHERE " + filter + ")") }
        return fragment
    }
}

extension QueryExpression where QueryValue: QueryText {
    /// `group_concat(x, separator ORDER BY order)`: the group's values joined in `order`.
    ///
    /// Needs SQLite 3.44 or later; older versions refuse the statement (`near "ORDER": syntax error`).
    public func groupConcat(
        _ separator: (some QueryExpression<String>)? = String?.none,
        order: some QueryOrdering,
        filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<String?> {
        SQLExpression(AggregateCall.render(
            "group_concat", separator.map { [queryFragment, $0.queryFragment] } ?? [queryFragment],
            order: order.orderingFragment, filter: filter?.queryFragment))
    }

    /// `group_concat(DISTINCT x ORDER BY order)`: each value once, joined by commas in `order`.
    ///
    /// Needs SQLite 3.44 or later; older versions refuse the statement (`near "ORDER": syntax error`).
    public func groupConcat(
        distinct: Bool,
        order: some QueryOrdering,
        filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<String?> {
        SQLExpression(AggregateCall.render(
            "group_concat", distinct: distinct, [queryFragment],
            order: order.orderingFragment, filter: filter?.queryFragment))
    }
}

extension QueryExpression where Self == SQLExpression<Int> {
    /// `count(*) FILTER (WHERE condition)`: the rows of the group for which `condition` holds,
    /// written `.count(filter: …)` where an `Int` expression is expected.
    public static func count(filter: (some QueryExpression<Bool>)? = Bool?.none) -> SQLExpression<Int> {
        SQLExpression(AggregateCall.render("count", [QueryFragment("*")], filter: filter?.queryFragment))
    }
}
