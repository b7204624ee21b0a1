extension Table {
    /// Inserts the rows, or, where one conflicts with an existing row on the `UNIQUE` column `target`,
    /// updates every other column of that row from it:
    /// `INSERT … ON CONFLICT ("name") DO UPDATE SET "color" = excluded."color", …`.
    ///
    /// ```swift
    /// try Tag.upsert(onConflict: \.name) { Tag(id: UUID(), name: "home", color: "blue") }.execute(conn)
    /// ```
    ///
    /// The existing row keeps its primary key: the key column is not updated.
    public static func upsert<Key>(
        onConflict target: KeyPath<TableColumns, TableColumn<Self, Key>>,
        @InsertValuesBuilder<Self> _ rows: () -> InsertRows<Self>
    ) -> Insert<Self> {
        let name = columns[keyPath: target].name
        let keys = Set(TableColumns.allColumns.filter(\.isPrimaryKey).map(\.name)).union([name])
        let updated = Insert<Self>.insertColumns.filter { !keys.contains($0) }
        return Insert(rows: rows().rows, conflict: updated.isEmpty ? .nothing(target: [name]) : .update(target: [name], columns: updated))
    }

    /// Inserts the rows, or, where one conflicts on `target`, makes the assignments `doUpdate` lists.
    /// Its second argument reads the values of the row that was refused (`excluded."column"`).
    ///
    /// ```swift
    /// Tag.upsert(onConflict: \.name) {
    ///     Tag(id: UUID(), name: "home", uses: 1)
    /// } doUpdate: { tag, excluded in
    ///     tag.uses += excluded.uses           // "uses" = ("uses" + excluded."uses")
    /// }
    /// ```
    public static func upsert<Key>(
        onConflict target: KeyPath<TableColumns, TableColumn<Self, Key>>,
        @InsertValuesBuilder<Self> _ rows: () -> InsertRows<Self>,
        doUpdate: (inout Updates<Self>, Excluded<Self>) -> Void
    ) -> Insert<Self> {
        var updates = Updates<Self>()
        doUpdate(&updates, Excluded())
        let name = columns[keyPath: target].name
        guard !updates.assignments.isEmpty else { return Insert(rows: rows().rows, conflict: .nothing(target: [name])) }
        let assignments = Update<Self>.setList(updates.assignments)
        return Insert(
            rows: rows().rows, conflict: .assign(target: [name], assignments: assignments.sql),
            conflictBindings: assignments.bindings)
    }
}

extension Table {
    /// Inserts the rows, skipping those whose `target` column matches an existing row:
    /// `INSERT … ON CONFLICT ("name") DO NOTHING`, as StructuredQueries spells it without `doUpdate`.
    ///
    /// ```swift
    /// try Tag.insert(onConflict: \.name) { Tag(id: UUID(), name: "home") }.execute(conn)
    /// ```
    public static func insert<Key>(
        onConflict target: KeyPath<TableColumns, TableColumn<Self, Key>>,
        @InsertValuesBuilder<Self> _ rows: () -> InsertRows<Self>
    ) -> Insert<Self> {
        Insert(rows: rows().rows, conflict: .nothing(target: [columns[keyPath: target].name]))
    }

    /// Inserts the rows, or, where one conflicts on `target`, makes the assignments `doUpdate` lists:
    /// the same statement as ``upsert(onConflict:_:doUpdate:)``.
    public static func insert<Key>(
        onConflict target: KeyPath<TableColumns, TableColumn<Self, Key>>,
        @InsertValuesBuilder<Self> _ rows: () -> InsertRows<Self>,
        doUpdate: (inout Updates<Self>, Excluded<Self>) -> Void
    ) -> Insert<Self> {
        upsert(onConflict: target, rows, doUpdate: doUpdate)
    }
}

// StructuredQueries' spellings of an upsert of rows, with the conflict target and the filters as
// closures: `Reminder.insert { row } onConflict: { $0.id } where: { … } doUpdate: { … } where: { … }`.
extension Table {
    /// Inserts the rows, and where one conflicts on the columns `target` names (a `UNIQUE` constraint,
    /// the key, or the partial unique index `targetFilter` describes), makes the assignments `updates`
    /// lists where `updateFilter` holds; the second argument of each reads the refused row. No
    /// assignment: `DO NOTHING`.
    ///
    /// ```swift
    /// Tag.insert {
    ///     Tag(id: 7, name: "home", uses: 1)
    /// } onConflict: {
    ///     $0.name
    /// } doUpdate: { tag, excluded in
    ///     tag.uses += excluded.uses
    /// } where: { tag, _ in
    ///     tag.uses < 100
    /// }
    /// ```
    public static func insert<each K: QueryRepresentable>(
        @InsertValuesBuilder<Self> _ rows: () -> InsertRows<Self>,
        onConflict target: (TableColumns) -> (repeat TableColumn<Self, each K>),
        @ConflictConditionBuilder where targetFilter: (TableColumns) -> [QueryFragment] = { _ in [] },
        doUpdate updates: (inout Updates<Self>, Excluded<Self>) -> Void = { _, _ in },
        @ConflictConditionBuilder where updateFilter: (TableColumns, Excluded<Self>) -> [QueryFragment] = { _, _ in [] }
    ) -> Insert<Self> {
        let clause = conflictClause(
            target: quotedNames(repeat each target(columns)), targetFilter: targetFilter(columns), updates,
            updateFilter: updateFilter)
        return Insert(rows: rows().rows, conflict: .clause(clause.sql), conflictBindings: clause.bindings)
    }

    /// Inserts the rows, updating a row that conflicts on `target` with the assignments `updates` lists
    /// where `updateFilter` holds.
    public static func insert<each K: QueryRepresentable>(
        @InsertValuesBuilder<Self> _ rows: () -> InsertRows<Self>,
        onConflict target: (TableColumns) -> (repeat TableColumn<Self, each K>),
        @ConflictConditionBuilder where targetFilter: (TableColumns) -> [QueryFragment] = { _ in [] },
        doUpdate updates: (inout Updates<Self>) -> Void,
        @ConflictConditionBuilder where updateFilter: (TableColumns) -> [QueryFragment] = { _ in [] }
    ) -> Insert<Self> {
        insert(rows, onConflict: target, where: targetFilter, doUpdate: { row, _ in updates(&row) }, where: { row, _ in return updateFilter(row) })
    }

    /// Inserts the rows, and where one conflicts with an existing row on any uniqueness constraint,
    /// makes the assignments `updates` lists where `updateFilter` holds: `ON CONFLICT DO UPDATE SET …`.
    public static func insert(
        @InsertValuesBuilder<Self> _ rows: () -> InsertRows<Self>,
        onConflictDoUpdate updates: (inout Updates<Self>, Excluded<Self>) -> Void,
        @ConflictConditionBuilder where updateFilter: (TableColumns, Excluded<Self>) -> [QueryFragment] = { _, _ in [] }
    ) -> Insert<Self> {
        let clause = conflictClause(target: [], targetFilter: [], updates, updateFilter: updateFilter)
        return Insert(rows: rows().rows, conflict: .clause(clause.sql), conflictBindings: clause.bindings)
    }

    /// Inserts the rows, updating a row they conflict with as `updates` says where `updateFilter` holds.
    public static func insert(
        @InsertValuesBuilder<Self> _ rows: () -> InsertRows<Self>,
        onConflictDoUpdate updates: (inout Updates<Self>) -> Void,
        @ConflictConditionBuilder where updateFilter: (TableColumns) -> [QueryFragment] = { _ in [] }
    ) -> Insert<Self> {
        insert(rows, onConflictDoUpdate: { row, _ in updates(&row) }, where: { row, _ in return updateFilter(row) })
    }
}

extension Insert {
    /// Skips rows that break a uniqueness constraint: `ON CONFLICT DO NOTHING`.
    ///
    /// ```swift
    /// try Tag.insert { Tag(id: UUID(), name: "home") }.onConflictDoNothing().execute(conn)
    /// ```
    public func onConflictDoNothing() -> Self {
        Self(rows: rows, conflict: .nothing(target: []))
    }

    /// Skips rows whose `target` column (`UNIQUE` or the key) matches an existing row:
    /// `ON CONFLICT ("name") DO NOTHING`. Other constraint violations still fail.
    public func onConflictDoNothing<Key>(_ target: KeyPath<Root.TableColumns, TableColumn<Root, Key>>) -> Self {
        Self(rows: rows, conflict: .nothing(target: [Root.columns[keyPath: target].name]))
    }
}

/// The row an upsert's `doUpdate` closure was refused for: `excluded."column"`.
///
/// ```swift
/// } doUpdate: { tag, excluded in tag.color = excluded.color }
/// ```
@dynamicMemberLookup
public struct Excluded<Root: Table>: Sendable {
    init() {}

    /// The refused row's value of a column.
    public subscript<Value: QueryRepresentable>(
        dynamicMember keyPath: KeyPath<Root.TableColumns, TableColumn<Root, Value>>
    ) -> SQLExpression<Value> {
        SQLExpression("excluded." + Root.columns[keyPath: keyPath].quotedName)
    }
}
