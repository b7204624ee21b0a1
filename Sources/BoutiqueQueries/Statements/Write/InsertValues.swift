/// `INSERT INTO "t" ("a", "b") VALUES (…), (…)`: rows of values for the columns a closure names, with
/// an optional `ON CONFLICT` clause. Swift values are bound; expressions (a trigger's `new` row,
/// subqueries, functions) are computed by SQLite.
///
/// ```swift
/// Reminder.insert { ($0.listID, $0.title) } values: {
///     (1, "Groceries")
///     (new.listID, new.title.upper())
/// }
/// Tag.insert { ($0.name, $0.uses) } values: { ("home", 1) } onConflict: { $0.name } doUpdate: { tag, excluded in
///     tag.uses += excluded.uses
/// }
/// Counter.insert()        // INSERT INTO "counter" DEFAULT VALUES
/// ```
///
/// The columns the closure names receive the values in order; the others take their defaults.
public struct InsertValues<Root: Table>: QueryStatement {
    public typealias Row = Void

    public let query: QueryFragment

    /// `columns` are quoted names; `conflict` is an `ON CONFLICT …` clause or nothing.
    init(columns: [String], rows: [[QueryFragment]], conflict: QueryFragment? = nil) {
        var query = QueryFragment("INSERT INTO " + Root.quotedTableName + " (" + columns.joined(separator: ", ") + ") ")
        if rows.isEmpty {
            // A builder whose loops produced no row inserts nothing: `VALUES` needs a row, so the
            // statement reads one from a select that returns none.
            query.append("SELECT " + Array(repeating: "NULL", count: columns.count).joined(separator: ", ") + " WHERE 0")
        } else {
            query.append("VALUES ")
            query.append(rows.map { "(" + $0.joined(separator: ", ") + ")" }.joined(separator: ", "))
        }
        if let conflict {
            query.append(" ")
            query.append(conflict)
        }
        self.query = query
    }

    /// `INSERT INTO "t" DEFAULT VALUES`.
    init(defaultValues: ()) {
        query = QueryFragment("INSERT INTO " + Root.quotedTableName + " DEFAULT VALUES")
    }

    public var rowSource: String { Root.tableName }

    public func decodeRow(_ decoder: inout RowDecoder) throws(BoutiqueError) {}
}

extension InsertValues: Sendable {}
extension InsertValues: ReturningStatement {}

extension Table {
    /// Inserts rows of values into the columns `columns` names, in order:
    /// `INSERT INTO "reminder" ("title", "listID") VALUES (?, ?), (?, ?)`. Each row has a value or an
    /// expression of each column's type (`nil` for an optional column).
    public static func insert<each V: QueryRepresentable>(
        _ columns: (TableColumns) -> (repeat TableColumn<Self, each V>),
        @InsertColumnValuesBuilder<(repeat each V)> values: () -> [[QueryFragment]]
    ) -> InsertValues<Self> {
        InsertValues(columns: quotedNames(repeat each columns(Self.columns)), rows: values())
    }

    /// Inserts rows of values, and where a row conflicts with an existing one on any uniqueness
    /// constraint, makes the assignments `updates` lists to that row; its second argument reads the
    /// refused row (`excluded."column"`): `ON CONFLICT DO UPDATE SET …`.
    public static func insert<each V: QueryRepresentable>(
        _ columns: (TableColumns) -> (repeat TableColumn<Self, each V>),
        @InsertColumnValuesBuilder<(repeat each V)> values: () -> [[QueryFragment]],
        onConflictDoUpdate updates: (inout Updates<Self>, Excluded<Self>) -> Void
    ) -> InsertValues<Self> {
        InsertValues(
            columns: quotedNames(repeat each columns(Self.columns)), rows: values(),
            conflict: conflictClause(target: [], updates))
    }

    /// Inserts rows of values, updating a conflicting row with the assignments `updates` lists.
    public static func insert<each V: QueryRepresentable>(
        _ columns: (TableColumns) -> (repeat TableColumn<Self, each V>),
        @InsertColumnValuesBuilder<(repeat each V)> values: () -> [[QueryFragment]],
        onConflictDoUpdate updates: (inout Updates<Self>) -> Void
    ) -> InsertValues<Self> {
        insert(columns, values: values, onConflictDoUpdate: { row, _ in updates(&row) })
    }

    /// Inserts rows of values, and where a row conflicts with an existing one on the columns `target`
    /// names (a `UNIQUE` constraint or the key), makes the assignments `updates` lists; its second
    /// argument reads the refused row: `ON CONFLICT ("name") DO UPDATE SET …`. No assignment: `DO NOTHING`.
    public static func insert<each V: QueryRepresentable, each K: QueryRepresentable>(
        _ columns: (TableColumns) -> (repeat TableColumn<Self, each V>),
        @InsertColumnValuesBuilder<(repeat each V)> values: () -> [[QueryFragment]],
        onConflict target: (TableColumns) -> (repeat TableColumn<Self, each K>),
        doUpdate updates: (inout Updates<Self>, Excluded<Self>) -> Void
    ) -> InsertValues<Self> {
        InsertValues(
            columns: quotedNames(repeat each columns(Self.columns)), rows: values(),
            conflict: conflictClause(target: quotedNames(repeat each target(Self.columns)), updates))
    }

    /// Inserts rows of values, updating a row that conflicts on `target` with the assignments `updates` lists.
    public static func insert<each V: QueryRepresentable, each K: QueryRepresentable>(
        _ columns: (TableColumns) -> (repeat TableColumn<Self, each V>),
        @InsertColumnValuesBuilder<(repeat each V)> values: () -> [[QueryFragment]],
        onConflict target: (TableColumns) -> (repeat TableColumn<Self, each K>),
        doUpdate updates: (inout Updates<Self>) -> Void
    ) -> InsertValues<Self> {
        insert(columns, values: values, onConflict: target, doUpdate: { row, _ in updates(&row) })
    }

    /// Inserts rows of values into one column: `INSERT INTO "tag" ("name") VALUES (?), (?)`.
    public static func insert<V: QueryRepresentable>(
        _ column: (TableColumns) -> TableColumn<Self, V>,
        @InsertColumnValuesBuilder<V> values: () -> [[QueryFragment]]
    ) -> InsertValues<Self> {
        InsertValues(columns: [column(Self.columns).quotedName], rows: values())
    }

    /// Inserts one expression of the wrapped type into an optional column:
    /// `INSERT INTO "item" ("name") VALUES ("new"."name")`.
    public static func insert<V: QueryRepresentable>(
        _ column: (TableColumns) -> TableColumn<Self, V?>,
        values: () -> some QueryExpression<V>
    ) -> InsertValues<Self> {
        InsertValues(columns: [column(Self.columns).quotedName], rows: [[values().queryFragment]])
    }

    /// Inserts a row of the columns' default values: `INSERT INTO "t" DEFAULT VALUES`.
    public static func insert() -> InsertValues<Self> {
        InsertValues(defaultValues: ())
    }

    /// The quoted names of columns, in order.
    static func quotedNames<each V>(_ columns: repeat TableColumn<Self, each V>) -> [String] {
        var names: [String] = []
        for column in repeat each columns { names.append(column.quotedName) }
        return names
    }

    /// `ON CONFLICT ("a") DO UPDATE SET …` of the assignments `updates` makes; `DO NOTHING` without any.
    /// An empty target stands for any uniqueness constraint.
    static func conflictClause(
        target: [String], _ updates: (inout Updates<Self>, Excluded<Self>) -> Void
    ) -> QueryFragment {
        var assignments = Updates<Self>()
        updates(&assignments, Excluded())
        let head = target.isEmpty ? "ON CONFLICT" : "ON CONFLICT (" + target.joined(separator: ", ") + ")"
        guard !assignments.assignments.isEmpty else { return QueryFragment(head + " DO NOTHING") }
        return QueryFragment(head + " DO UPDATE SET ") + Update<Self>.setList(assignments.assignments)
    }
}
