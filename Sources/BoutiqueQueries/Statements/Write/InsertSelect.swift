/// `INSERT INTO "t" ("a", "b") SELECT …`: writes the rows another statement reads, in one step,
/// without bringing them into Swift.
///
/// ```swift
/// try Tag.insert { $0.name } select: { RemindersList.select { $0.name.lower() } }.execute(connection)
/// ```
///
/// The columns the closure names receive the selected values in order; the others take their defaults.
/// A row that conflicts with an existing one fails the statement, unless `onConflictDoUpdate:` or
/// ``onConflictDoNothing()`` says otherwise; `returning` reads the rows written.
public struct InsertSelect<Root: Table>: QueryStatement {
    public typealias Row = Void

    let columns: [String]
    let select: QueryFragment
    /// `ON CONFLICT …`, or nothing.
    var conflict: QueryFragment?

    init(columns: [String], select: QueryFragment, conflict: QueryFragment? = nil) {
        self.columns = columns
        self.select = select
        self.conflict = conflict
    }

    public var query: QueryFragment {
        let head = QueryFragment("INSERT INTO " + Root.quotedTableName + " (" + columns.joined(separator: ", ") + ") ")
        guard let conflict else { return head + select }
        // SQLite would read `ON` right after a select's `FROM` as a join's condition: the select is
        // read from a subquery with a `WHERE` of its own, as SQLite's documentation advises.
        return head + "SELECT * FROM (" + select + ") WHERE 1 " + conflict
    }

    public var rowSource: String { Root.tableName }

    public func decodeRow(_ decoder: inout RowDecoder) throws(BoutiqueError) {}

    /// Skips the selected rows that conflict with an existing row on any uniqueness constraint:
    /// `ON CONFLICT DO NOTHING`.
    public func onConflictDoNothing() -> Self {
        var copy = self
        copy.conflict = QueryFragment("ON CONFLICT DO NOTHING")
        return copy
    }

    /// Skips the selected rows whose `target` column matches an existing row:
    /// `ON CONFLICT ("name") DO NOTHING`.
    public func onConflictDoNothing<Key>(_ target: KeyPath<Root.TableColumns, TableColumn<Root, Key>>) -> Self {
        var copy = self
        copy.conflict = QueryFragment("ON CONFLICT (" + SQLIdentifier.quote(Root.columns[keyPath: target].name) + ") DO NOTHING")
        return copy
    }
}

extension InsertSelect: ReturningStatement {}

extension Table {
    /// Inserts the rows `selection` returns into the columns `columns` names, in order:
    /// `INSERT INTO "tag" ("name") SELECT …`. The select's row type must match the columns' types.
    ///
    /// `onConflictDoUpdate` makes the assignments it lists to an existing row a selected row conflicts
    /// with: `ON CONFLICT DO UPDATE SET …`.
    public static func insert<each V: QueryRepresentable>(
        _ columns: (TableColumns) -> (repeat TableColumn<Self, each V>),
        select selection: () -> some PartialSelectStatement<(repeat (each V).QueryOutput)>,
        onConflictDoUpdate updates: ((inout Updates<Self>) -> Void)? = nil
    ) -> InsertSelect<Self> {
        var names: [String] = []
        for column in repeat each columns(Self.columns) { names.append(column.quotedName) }
        return InsertSelect(columns: names, select: selection().query, conflict: conflictUpdate(updates))
    }

    /// Inserts the values `selection` returns into one column: `INSERT INTO "tag" ("name") SELECT …`.
    public static func insert<V: QueryRepresentable>(
        _ column: (TableColumns) -> TableColumn<Self, V>,
        select selection: () -> some PartialSelectStatement<V.QueryOutput>,
        onConflictDoUpdate updates: ((inout Updates<Self>) -> Void)? = nil
    ) -> InsertSelect<Self> {
        InsertSelect(columns: [column(Self.columns).quotedName], select: selection().query, conflict: conflictUpdate(updates))
    }

    /// `ON CONFLICT DO UPDATE SET …` of the assignments `updates` makes (none: nothing to add).
    private static func conflictUpdate(_ updates: ((inout Updates<Self>) -> Void)?) -> QueryFragment? {
        guard let updates else { return nil }
        var assignments = Updates<Self>()
        updates(&assignments)
        guard !assignments.assignments.isEmpty else { return QueryFragment("ON CONFLICT DO NOTHING") }
        return "ON CONFLICT DO UPDATE SET " + Update<Self>.setList(assignments.assignments)
    }
}
