import BoutiqueSQLite

// Triggers that update the row that fired them, most often to keep an "updated at" column current:
// `.update(touch: \.updatedAt)`. The row is found by rowid (by primary key in a table declared
// `WITHOUT ROWID`, which has no rowid). An AFTER UPDATE trigger that updates its own table fires itself
// again when `PRAGMA recursive_triggers` is on; limit it with `update(of:touch:)` to columns it does
// not assign.

extension TemporaryTrigger.Operation {
    /// An `INSERT` trigger that applies `updates` to each inserted row.
    ///
    /// ```swift
    /// RemindersList.createTemporaryTrigger(after: .insert(touch: { $0.position = 0 }))
    /// ```
    @_disfavoredOverload
    public static func insert(
        touch updates: (inout Updates<On>) -> Void,
        when condition: ((_ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
        insert(forEachRow: { new in touching(new, updates) }, when: condition)
    }

    /// An `INSERT` trigger that sets a date column of each inserted row to the current time, as the
    /// column stores it (seconds since 1970 for a plain `Date`).
    @_disfavoredOverload
    public static func insert<D: QueryDateRepresentation>(
        touch dateColumn: KeyPath<On.TableColumns, TableColumn<On, D>>,
        when condition: ((_ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
        insert(touch: dateColumn, date: SQLExpression<D>(D.storedValue([QueryFragment("'now'")])), when: condition)
    }

    /// An `INSERT` trigger that sets an optional date column of each inserted row to the current time.
    @_disfavoredOverload
    public static func insert<D: QueryDateRepresentation>(
        touch dateColumn: KeyPath<On.TableColumns, TableColumn<On, D?>>,
        when condition: ((_ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
        insert(touch: dateColumn, date: SQLExpression<D?>(D.storedValue([QueryFragment("'now'")])), when: condition)
    }

    /// An `INSERT` trigger that sets a column of each inserted row to `date`, an expression SQLite
    /// computes when the trigger runs (`#sql("…")`, `.now`).
    @_disfavoredOverload
    public static func insert<V: QueryRepresentable>(
        touch dateColumn: KeyPath<On.TableColumns, TableColumn<On, V>>,
        date: any QueryExpression<V>,
        when condition: ((_ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
        let name = On.columns[keyPath: dateColumn].name
        return insert(forEachRow: { new in touching(new, [(name, date.queryFragment)]) }, when: condition)
    }

    /// An `UPDATE` trigger that applies `updates` to each updated row.
    ///
    /// ```swift
    /// RemindersList.createTemporaryTrigger(after: .update { $0.version += 1 })
    /// ```
    @_disfavoredOverload
    public static func update(
        touch updates: (inout Updates<On>) -> Void,
        when condition: ((_ old: Old, _ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
        update(forEachRow: { _, new in touching(new, updates) }, when: condition)
    }

    /// An `UPDATE` trigger that sets a date column of each updated row to the current time.
    ///
    /// ```swift
    /// Reminder.createTemporaryTrigger(after: .update(touch: \.updatedAt))
    /// ```
    @_disfavoredOverload
    public static func update<D: QueryDateRepresentation>(
        touch dateColumn: KeyPath<On.TableColumns, TableColumn<On, D>>,
        when condition: ((_ old: Old, _ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
        update(touch: dateColumn, date: SQLExpression<D>(D.storedValue([QueryFragment("'now'")])), when: condition)
    }

    /// An `UPDATE` trigger that sets an optional date column of each updated row to the current time.
    @_disfavoredOverload
    public static func update<D: QueryDateRepresentation>(
        touch dateColumn: KeyPath<On.TableColumns, TableColumn<On, D?>>,
        when condition: ((_ old: Old, _ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
        update(touch: dateColumn, date: SQLExpression<D?>(D.storedValue([QueryFragment("'now'")])), when: condition)
    }

    /// An `UPDATE` trigger that sets a column of each updated row to `date`, computed by SQLite.
    @_disfavoredOverload
    public static func update<V: QueryRepresentable>(
        touch dateColumn: KeyPath<On.TableColumns, TableColumn<On, V>>,
        date: any QueryExpression<V>,
        when condition: ((_ old: Old, _ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
        let name = On.columns[keyPath: dateColumn].name
        return update(forEachRow: { _, new in touching(new, [(name, date.queryFragment)]) }, when: condition)
    }

    /// An `UPDATE OF` trigger that applies `updates` to each row whose `columns` an update assigned.
    @_disfavoredOverload
    public static func update<each Value: QueryRepresentable>(
        of columns: (On.TableColumns) -> (repeat TableColumn<On, each Value>),
        touch updates: (inout Updates<On>) -> Void,
        when condition: ((_ old: Old, _ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
        update(of: columns, forEachRow: { _, new in touching(new, updates) }, when: condition)
    }

    /// An `UPDATE OF` trigger that sets a date column to the current time on each row whose `columns`
    /// an update assigned: `.update(of: { $0.title }, touch: \.updatedAt)`.
    @_disfavoredOverload
    public static func update<each Value: QueryRepresentable, D: QueryDateRepresentation>(
        of columns: (On.TableColumns) -> (repeat TableColumn<On, each Value>),
        touch dateColumn: KeyPath<On.TableColumns, TableColumn<On, D>>,
        when condition: ((_ old: Old, _ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
        update(
            of: columns, touch: dateColumn, date: SQLExpression<D>(D.storedValue([QueryFragment("'now'")])),
            when: condition)
    }

    /// An `UPDATE OF` trigger that sets an optional date column to the current time on each row whose
    /// `columns` an update assigned.
    @_disfavoredOverload
    public static func update<each Value: QueryRepresentable, D: QueryDateRepresentation>(
        of columns: (On.TableColumns) -> (repeat TableColumn<On, each Value>),
        touch dateColumn: KeyPath<On.TableColumns, TableColumn<On, D?>>,
        when condition: ((_ old: Old, _ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
        update(
            of: columns, touch: dateColumn, date: SQLExpression<D?>(D.storedValue([QueryFragment("'now'")])),
            when: condition)
    }

    /// An `UPDATE OF` trigger that sets a column to `date`, computed by SQLite, on each row whose
    /// `columns` an update assigned.
    @_disfavoredOverload
    public static func update<each Value: QueryRepresentable, V: QueryRepresentable>(
        of columns: (On.TableColumns) -> (repeat TableColumn<On, each Value>),
        touch dateColumn: KeyPath<On.TableColumns, TableColumn<On, V>>,
        date: any QueryExpression<V>,
        when condition: ((_ old: Old, _ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
        let name = On.columns[keyPath: dateColumn].name
        return update(of: columns, forEachRow: { _, new in touching(new, [(name, date.queryFragment)]) }, when: condition)
    }

    /// `UPDATE "t" SET … WHERE <the row is new>`, with the assignments `updates` makes.
    private static func touching(_ new: New, _ updates: (inout Updates<On>) -> Void) -> Update<On> {
        var assigned = Updates<On>()
        updates(&assigned)
        return touching(new, assigned.assignments)
    }

    private static func touching(_ new: New, _ assignments: [(column: String, value: QueryFragment)]) -> Update<On> {
        Update(assignments: assignments, wheres: [sameRow(as: new)])
    }

    /// `"t"."rowid" = "new"."rowid"`, or the primary key's columns in a table without rowid.
    private static func sameRow(as new: New) -> QueryFragment {
        let withoutRowID = (On.self as? any BoutiqueTableOptions.Type)?.tableOptions.contains(.withoutRowID) ?? false
        let keys = withoutRowID ? On.TableColumns.allColumns.filter(\.isPrimaryKey).map(\.name) : []
        guard !keys.isEmpty else {
            return Operators.binary(QueryFragment(On.quotedTableName + ".\"rowid\""), "=", new.rowid.queryFragment)
        }
        return keys.map { key in
            Operators.binary(
                QueryFragment(On.quotedTableName + "." + SQLIdentifier.quote(key)), "=",
                QueryFragment(SQLIdentifier.quote(new.alias) + "." + SQLIdentifier.quote(key)))
        }.joined(separator: " AND ")
    }
}
