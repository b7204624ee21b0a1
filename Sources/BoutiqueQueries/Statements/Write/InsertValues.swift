/// `INSERT INTO "t" ("a", "b") VALUES (…)`: one row whose values are expressions, computed by SQLite:
/// columns of a trigger's `new` row, subqueries, functions, as well as plain values, which are bound.
///
/// ```swift
/// Reminder.insert { ($0.title, $0.listID) } values: {
///     (new.reminderTitle, RemindersList.select(\.id).where { $0.name.eq(new.listName) })
/// }
/// ```
///
/// The columns the closure names receive the values in order; the others take their defaults.
public struct InsertValues<Root: Table>: QueryStatement {
    public typealias Row = Void

    public let query: QueryFragment

    init(columns: [String], values: [QueryFragment]) {
        query = "INSERT INTO " + Root.quotedTableName + " (" + columns.joined(separator: ", ") + ") VALUES ("
            + values.joined(separator: ", ") + ")"
    }

    public var rowSource: String { Root.tableName }

    public func decodeRow(_ decoder: inout RowDecoder) throws(BoutiqueError) {}
}

extension InsertValues: Sendable {}

extension Table {
    /// Inserts one row of expressions into the columns `columns` names, in order:
    /// `INSERT INTO "reminder" ("title", "listID") VALUES ("new"."title", ?)`. Each expression has its
    /// column's type (an optional column takes an optional expression: `Int?(0)`, `new.note`).
    public static func insert<each V: QueryRepresentable, each E: QueryExpression>(
        _ columns: (TableColumns) -> (repeat TableColumn<Self, each V>),
        values: () -> (repeat each E)
    ) -> InsertValues<Self> where repeat (each E).QueryValue == each V {
        var names: [String] = []
        for column in repeat each columns(Self.columns) { names.append(column.quotedName) }
        var fragments: [QueryFragment] = []
        for value in repeat each values() { fragments.append(value.queryFragment) }
        return InsertValues(columns: names, values: fragments)
    }

    /// Inserts one expression of the wrapped type into an optional column:
    /// `INSERT INTO "item" ("name") VALUES ("new"."name")`.
    public static func insert<V: QueryRepresentable>(
        _ column: (TableColumns) -> TableColumn<Self, V?>,
        values: () -> some QueryExpression<V>
    ) -> InsertValues<Self> {
        InsertValues(columns: [column(Self.columns).quotedName], values: [values().queryFragment])
    }
}
