/// Builds the rows of `insert { columns } values: { … }`: each line is one row, a tuple with a value
/// or an expression for each named column, and `for`/`if` repeat or leave out rows.
///
/// ```swift
/// Reminder.insert { ($0.listID, $0.title, $0.priority) } values: {
///     (1, "Groceries", .high)
///     (1, "Haircut", nil)
///     for title in extraTitles { (2, title, nil) }
/// }
/// ```
///
/// `Row` is the columns' representations, `(Int, String, Priority?)`. Swift values are bound with
/// their column's representation; expressions (a trigger's `new` row, a subquery) are written in.
@resultBuilder
public enum InsertColumnValuesBuilder<Row> {
    /// A row of Swift values, each bound with its column's representation (`nil` for an optional one).
    public static func buildExpression<each V: QueryRepresentable>(
        _ row: (repeat (each V).QueryOutput)
    ) -> [[QueryFragment]] where Row == (repeat each V) {
        var values: [QueryFragment] = []
        for (representation, value) in repeat ((each V).self, each row) {
            values.append(representation.bound(value))
        }
        return [values]
    }

    /// A row of expressions of the columns' types, written into the statement.
    @_disfavoredOverload
    public static func buildExpression<each E: QueryExpression>(
        _ row: (repeat each E)
    ) -> [[QueryFragment]] where Row == (repeat (each E).QueryValue) {
        var values: [QueryFragment] = []
        for expression in repeat each row { values.append(expression.queryFragment) }
        return [values]
    }

    /// The rows of every line, in order.
    public static func buildBlock(_ rows: [[QueryFragment]]...) -> [[QueryFragment]] { rows.flatMap { $0 } }

    /// The rows of every iteration of a `for` loop.
    public static func buildArray(_ rows: [[[QueryFragment]]]) -> [[QueryFragment]] { rows.flatMap { $0 } }

    /// The rows of an `if` without `else`; none when the condition is false.
    public static func buildOptional(_ rows: [[QueryFragment]]?) -> [[QueryFragment]] { rows ?? [] }

    /// The rows of an `if` branch.
    public static func buildEither(first rows: [[QueryFragment]]) -> [[QueryFragment]] { rows }

    /// The rows of an `else` branch.
    public static func buildEither(second rows: [[QueryFragment]]) -> [[QueryFragment]] { rows }
}
