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
