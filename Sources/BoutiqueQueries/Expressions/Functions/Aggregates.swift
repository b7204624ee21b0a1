// Every aggregate takes `filter:`, rendered `FILTER (WHERE condition)`: only the group's rows for
// which the condition holds are aggregated. The options are rendered by `AggregateCall`.

extension QueryExpression where QueryValue: QueryRepresentable {
    /// `count(x)`: the number of non-NULL values; `distinct: true` counts each value once.
    public func count(
        distinct: Bool = false, filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<Int> {
        SQLExpression(AggregateCall.render("count", distinct: distinct, [queryFragment], filter: filter?.queryFragment))
    }

    /// `max(x)`: NULL for no rows.
    @_disfavoredOverload
    public func max(filter: (some QueryExpression<Bool>)? = Bool?.none) -> SQLExpression<QueryValue.Optionalized> {
        SQLExpression(AggregateCall.render("max", [queryFragment], filter: filter?.queryFragment))
    }

    /// `min(x)`: NULL for no rows.
    @_disfavoredOverload
    public func min(filter: (some QueryExpression<Bool>)? = Bool?.none) -> SQLExpression<QueryValue.Optionalized> {
        SQLExpression(AggregateCall.render("min", [queryFragment], filter: filter?.queryFragment))
    }
}

// An optional column's aggregate is just as optional: NULL for no rows and for rows of NULLs alike, so
// `max()` of an `Int?` column reads as `Int?`, not `Int??`.
extension QueryExpression {
    /// `max(x)` of an optional column: NULL for no rows or only NULLs.
    public func max<Wrapped: QueryRepresentable>(
        filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<Wrapped?> where QueryValue == Wrapped? {
        SQLExpression(AggregateCall.render("max", [queryFragment], filter: filter?.queryFragment))
    }

    /// `min(x)` of an optional column: NULL for no rows or only NULLs.
    public func min<Wrapped: QueryRepresentable>(
        filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<Wrapped?> where QueryValue == Wrapped? {
        SQLExpression(AggregateCall.render("min", [queryFragment], filter: filter?.queryFragment))
    }

    /// `sum(x)` of an optional column: NULL for no rows or only NULLs.
    public func sum<Wrapped: QueryNumeric>(
        distinct: Bool = false, filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<Wrapped?> where QueryValue == Wrapped? {
        SQLExpression(AggregateCall.render("sum", distinct: distinct, [queryFragment], filter: filter?.queryFragment))
    }
}

extension QueryExpression where QueryValue: QueryNumeric {
    /// `sum(x)`: NULL for no rows.
    @_disfavoredOverload
    public func sum(
        distinct: Bool = false, filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<QueryValue.Optionalized> {
        SQLExpression(AggregateCall.render("sum", distinct: distinct, [queryFragment], filter: filter?.queryFragment))
    }

    /// `avg(x)`: a double, NULL for no rows.
    public func avg(
        distinct: Bool = false, filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<Double?> {
        SQLExpression(AggregateCall.render("avg", distinct: distinct, [queryFragment], filter: filter?.queryFragment))
    }

    /// `total(x)`: like `sum`, but 0.0 for no rows.
    public func total(
        distinct: Bool = false, filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<Double> {
        SQLExpression(AggregateCall.render("total", distinct: distinct, [queryFragment], filter: filter?.queryFragment))
    }
}

extension QueryExpression where QueryValue: QueryText {
    /// `group_concat(x)` or `group_concat(x, separator)`: the group's values joined (by commas when no
    /// separator is given); NULL for no rows.
    public func groupConcat(
        _ separator: (some QueryExpression<String>)? = String?.none,
        filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<String?> {
        SQLExpression(AggregateCall.render(
            "group_concat", separator.map { [queryFragment, $0.queryFragment] } ?? [queryFragment],
            filter: filter?.queryFragment))
    }

    /// `group_concat(DISTINCT x)`: each value once, joined by commas (SQLite takes no separator with
    /// DISTINCT).
    public func groupConcat(
        distinct: Bool, filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<String?> {
        SQLExpression(AggregateCall.render("group_concat", distinct: distinct, [queryFragment], filter: filter?.queryFragment))
    }
}

// A table's columns count its rows by primary key, so a left join's missing row, whose key is NULL,
// is not counted: `$1.count()` is 0 for a list without reminders.
extension PrimaryKeyedTableDefinition {
    /// `count(key)`: the number of the table's rows in the group, counted by primary key.
    ///
    /// ```swift
    /// RemindersList.group(by: \.id).leftJoin(Reminder.all) { $0.id.eq($1.listID) }
    ///     .select { ($0.name, $1.count(filter: !$1.isDone)) }
    /// // SELECT "remindersList"."name", count("reminder"."id") FILTER (WHERE (NOT "reminder"."isDone")) …
    /// ```
    public func count(
        distinct: Bool = false, filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<Int> {
        primaryKey.count(distinct: distinct, filter: filter)
    }
}

/// `count(*)`: the number of rows (in a group).
public func count() -> SQLExpression<Int> { SQLExpression("count(*)") }

extension QueryRepresentable {
    /// The optional form of the representation: aggregates return NULL for an empty set. (An optional
    /// column's aggregates have their own overloads, which read as the column's own type.)
    public typealias Optionalized = Self?
}
