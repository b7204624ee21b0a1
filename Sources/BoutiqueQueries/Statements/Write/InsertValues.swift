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
    /// refused row (`excluded."column"`): `ON CONFLICT DO UPDATE SET …`. A row for which `updateFilter`
    /// does not hold is left as it is (`… WHERE …`).
    public static func insert<each V: QueryRepresentable>(
        _ columns: (TableColumns) -> (repeat TableColumn<Self, each V>),
        @InsertColumnValuesBuilder<(repeat each V)> values: () -> [[QueryFragment]],
        onConflictDoUpdate updates: (inout Updates<Self>, Excluded<Self>) -> Void,
        @ConflictConditionBuilder where updateFilter: (TableColumns, Excluded<Self>) -> [QueryFragment] = { _, _ in [] }
    ) -> InsertValues<Self> {
        InsertValues(
            columns: quotedNames(repeat each columns(Self.columns)), rows: values(),
            conflict: conflictClause(target: [], targetFilter: [], updates, updateFilter: updateFilter))
    }

    /// Inserts rows of values, updating a conflicting row with the assignments `updates` lists where
    /// `updateFilter` holds.
    public static func insert<each V: QueryRepresentable>(
        _ columns: (TableColumns) -> (repeat TableColumn<Self, each V>),
        @InsertColumnValuesBuilder<(repeat each V)> values: () -> [[QueryFragment]],
        onConflictDoUpdate updates: (inout Updates<Self>) -> Void,
        @ConflictConditionBuilder where updateFilter: (TableColumns) -> [QueryFragment] = { _ in [] }
    ) -> InsertValues<Self> {
        insert(columns, values: values, onConflictDoUpdate: { row, _ in updates(&row) }, where: { row, _ in return updateFilter(row) })
    }

    /// Inserts rows of values, and where a row conflicts with an existing one on the columns `target`
    /// names (a `UNIQUE` constraint or the key, or a partial unique index that `targetFilter`
    /// describes), makes the assignments `updates` lists where `updateFilter` holds; its second
    /// argument reads the refused row: `ON CONFLICT ("name") WHERE … DO UPDATE SET … WHERE …`. No
    /// assignment: `DO NOTHING` (and `updateFilter` has nothing to filter).
    public static func insert<each V: QueryRepresentable, each K: QueryRepresentable>(
        _ columns: (TableColumns) -> (repeat TableColumn<Self, each V>),
        @InsertColumnValuesBuilder<(repeat each V)> values: () -> [[QueryFragment]],
        onConflict target: (TableColumns) -> (repeat TableColumn<Self, each K>),
        @ConflictConditionBuilder where targetFilter: (TableColumns) -> [QueryFragment] = { _ in [] },
        doUpdate updates: (inout Updates<Self>, Excluded<Self>) -> Void = { _, _ in },
        @ConflictConditionBuilder where updateFilter: (TableColumns, Excluded<Self>) -> [QueryFragment] = { _, _ in [] }
    ) -> InsertValues<Self> {
        InsertValues(
            columns: quotedNames(repeat each columns(Self.columns)), rows: values(),
            conflict: conflictClause(
                target: quotedNames(repeat each target(Self.columns)), targetFilter: targetFilter(Self.columns), updates,
                updateFilter: updateFilter))
    }

    /// Inserts rows of values, updating a row that conflicts on `target` with the assignments `updates`
    /// lists where `updateFilter` holds.
    public static func insert<each V: QueryRepresentable, each K: QueryRepresentable>(
        _ columns: (TableColumns) -> (repeat TableColumn<Self, each V>),
        @InsertColumnValuesBuilder<(repeat each V)> values: () -> [[QueryFragment]],
        onConflict target: (TableColumns) -> (repeat TableColumn<Self, each K>),
        @ConflictConditionBuilder where targetFilter: (TableColumns) -> [QueryFragment] = { _ in [] },
        doUpdate updates: (inout Updates<Self>) -> Void,
        @ConflictConditionBuilder where updateFilter: (TableColumns) -> [QueryFragment] = { _ in [] }
    ) -> InsertValues<Self> {
        insert(
            columns, values: values, onConflict: target, where: targetFilter, doUpdate: { row, _ in updates(&row) },
            where: { row, _ in return updateFilter(row) })
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

    /// `ON CONFLICT ("a") WHERE … DO UPDATE SET … WHERE …` of the assignments `updates` makes; `DO
    /// NOTHING` without any, where the update's filter is left out: it would have no update to filter,
    /// and SQLite refuses `DO NOTHING WHERE`. An empty target stands for any uniqueness constraint,
    /// which takes no filter of its own.
    static func conflictClause(
        target: [String], targetFilter: [QueryFragment], _ updates: (inout Updates<Self>, Excluded<Self>) -> Void,
        updateFilter: (TableColumns, Excluded<Self>) -> [QueryFragment]
    ) -> QueryFragment {
        var assignments = Updates<Self>()
        updates(&assignments, Excluded())
        var clause = QueryFragment(target.isEmpty ? "ON CONFLICT" : "ON CONFLICT (" + target.joined(separator: ", ") + ")")
        if !target.isEmpty { clause.append(ConflictConditionBuilder.whereClause(targetFilter)) }
        guard !assignments.assignments.isEmpty else {
            clause.append(" DO NOTHING")
            return clause
        }
        clause.append(" DO UPDATE SET ")
        clause.append(Update<Self>.setList(assignments.assignments))
        clause.append(ConflictConditionBuilder.whereClause(updateFilter(columns, Excluded())))
        return clause
    }
}
