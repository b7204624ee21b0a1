import BoutiqueSQLite

/// An `UPDATE` of the rows a filter selects.
///
/// ```swift
/// try Note.update { $0.title = "Renamed"; $0.views += 1 }
///     .where { $0.id == noteID }
///     .execute(connection)
/// try Note.update(note).execute(connection)       // every column, by primary key
/// ```
public struct Update<Root: Table>: QueryStatement {
    public typealias Row = Void

    let assignments: [(column: String, value: QueryFragment)]
    var wheres: [QueryFragment]

    public var rowSource: String { Root.tableName }
    public func decodeRow(_ decoder: inout RowDecoder) throws(BoutiqueError) {}

    public var query: QueryFragment {
        var query = QueryFragment("UPDATE " + Root.quotedTableName + " SET ")
        query.append(Self.setList(assignments))
        return query + SelectClauses.whereClause(wheres)
    }

    /// `"a" = …, "b" = …`: the assignments of a `SET` clause.
    static func setList(_ assignments: [(column: String, value: QueryFragment)]) -> QueryFragment {
        assignments.map { QueryFragment(SQLIdentifier.quote($0.column) + " = ") + $0.value }.joined(separator: ", ")
    }

    /// Updates only the rows for which `predicate` holds; several `where` calls are ANDed.
    public func `where`(_ predicate: (Root.TableColumns) -> some QueryExpression<Bool>) -> Self {
        var copy = self
        copy.wheres.append(predicate(Root.columns).queryFragment)
        return copy
    }
}

/// The assignments of an `update { }` closure.
///
/// Each column reads as an expression of its current value and accepts any expression of its type,
/// including a plain Swift value, which is bound:
///
/// ```swift
/// Reminder.update {
///     $0.title = newTitle                 // a bound value
///     $0.title = $0.title.upper()         // an expression
///     $0.views += 1
///     $0.estimate = $0.estimate * 2 + 5   // arithmetic on the column, optional or not
///     $0.isDone = !$0.isDone
///     $0.dueDate = nil                    // NULL, in an optional column
///     $0.priority = .high                 // an optional column takes its wrapped type's values too
/// }
/// ```
@dynamicMemberLookup
public struct Updates<Root: Table> {
    var assignments: [(column: String, value: QueryFragment)] = []

    /// The column as an expression, read and assigned: `$0.title = $0.title.upper()`,
    /// `tag.uses = tag.uses + excluded.uses`. Reads see earlier assignments in the same closure, as
    /// statements in a Swift closure would.
    public subscript<Value: QueryRepresentable>(
        dynamicMember keyPath: KeyPath<Root.TableColumns, TableColumn<Root, Value>>
    ) -> SQLExpression<Value> {
        get { SQLExpression<Value>(current(Root.columns[keyPath: keyPath])) }
        set { assign(Root.columns[keyPath: keyPath].name, newValue.queryFragment) }
    }

    /// The column assigned any expression of its type, including a plain Swift value, which is bound
    /// (`$0.title = "Groceries"`, `$0.title = newTitle`), and the target of `+=`, `-=` and `*=`.
    @_disfavoredOverload
    public subscript<Value: QueryRepresentable>(
        dynamicMember keyPath: KeyPath<Root.TableColumns, TableColumn<Root, Value>>
    ) -> any QueryExpression<Value> {
        get { SQLExpression<Value>(current(Root.columns[keyPath: keyPath])) }
        set { assign(Root.columns[keyPath: keyPath].name, newValue.queryFragment) }
    }

    /// An optional column set to a Swift value: `nil`, a literal, an enum case, or a value of the
    /// wrapped type (`$0.dueDate = nil`, `$0.priority = .high`, `$0.dueDate = date`), bound.
    ///
    /// It only assigns: the column's value lives in the database, so there is no Swift value to read.
    /// Reads go through the expression subscript, which the compiler prefers (`$0.minutes * 2 + 5`
    /// reads the column). The getter exists because a subscript must have one; it is unavailable, so
    /// that no read (`$0.dueDate ?? now`) can quietly bind NULL in the column's place.
    @_disfavoredOverload
    public subscript<Wrapped: QueryRepresentable>(
        dynamicMember keyPath: KeyPath<Root.TableColumns, TableColumn<Root, Wrapped?>>
    ) -> Wrapped.QueryOutput? {
        @available(*, unavailable, message: "a column has no Swift value to read here; use it as an expression")
        get { nil }
        set { assign(Root.columns[keyPath: keyPath].name, QueryFragment(binding: Wrapped?.encode(newValue))) }
    }

    /// An optional column set to an expression of the wrapped type: `$0.dueDate = $0.createdAt`,
    /// `$0.dueDate = $0.dueDate.coalesce(now)`. It only assigns; reads use the subscripts above.
    @_disfavoredOverload
    public subscript<Wrapped: QueryRepresentable>(
        dynamicMember keyPath: KeyPath<Root.TableColumns, TableColumn<Root, Wrapped?>>
    ) -> SQLExpression<Wrapped> {
        @available(*, unavailable, message: "read an optional column as an optional expression")
        get { SQLExpression<Wrapped>(current(Root.columns[keyPath: keyPath])) }
        set { assign(Root.columns[keyPath: keyPath].name, newValue.queryFragment) }
    }

    /// The columns of a group (a `@Selection` struct stored as one field), assigned one by one:
    /// `$0.timestamps.updatedAt = now`.
    public subscript<Group: QuerySelection>(
        dynamicMember keyPath: KeyPath<Root.TableColumns, ColumnGroup<Root, Group>>
    ) -> GroupUpdates<Root, Group> {
        get { GroupUpdates(updates: self) }
        set { self = newValue.updates }
    }

    /// The group assigned as a whole, from a Swift value: `$0.timestamps = Timestamps(…)` sets each of
    /// its written columns (bound). It only assigns.
    @_disfavoredOverload
    public subscript<Group: QuerySelection>(
        dynamicMember keyPath: KeyPath<Root.TableColumns, ColumnGroup<Root, Group>>
    ) -> Group {
        @available(*, unavailable, message: "a group has no Swift value to read here; read its fields")
        get { fatalError("unavailable") }
        set { assignGroup(newValue, as: Group.self) }
    }

    /// The fields of an optional group (`var timestamps: Timestamps?`), assigned one by one:
    /// `$0.timestamps.updatedAt = now`.
    public subscript<Group: QuerySelection>(
        dynamicMember keyPath: KeyPath<Root.TableColumns, OptionalColumnGroup<Root, Group>>
    ) -> GroupUpdates<Root, Group> {
        get { GroupUpdates(updates: self) }
        set { self = newValue.updates }
    }

    /// An optional group assigned as a whole: `$0.timestamps = nil` writes NULL in each of its written
    /// columns, `$0.timestamps = Timestamps(…)` their values. It only assigns.
    @_disfavoredOverload
    public subscript<Group: QuerySelection>(
        dynamicMember keyPath: KeyPath<Root.TableColumns, OptionalColumnGroup<Root, Group>>
    ) -> Group? {
        @available(*, unavailable, message: "a group has no Swift value to read here; read its fields")
        get { nil }
        set { assignGroup(newValue, as: Group?.self) }
    }

    /// Assigns each written column of a group its value in `value`, bound, in the group's order.
    mutating func assignGroup<Group: QueryRepresentable>(_ value: Group.QueryOutput, as group: Group.Type) {
        var encoder = RowEncoder()
        encoder.encode(value, as: Group.self)
        let names = (Group.groupedColumns ?? []).filter(\.isWritable).map(\.name)
        for (name, value) in zip(names, encoder.values) { assign(name, QueryFragment(binding: value)) }
    }

    /// The column's value as the statement sees it so far: its assigned value once assigned, else the
    /// column itself.
    func current<Value>(_ column: TableColumn<Root, Value>) -> QueryFragment {
        assignments.last(where: { $0.column == column.name })?.value ?? QueryFragment(column.quotedName)
    }

    /// Records `column = value`; a column assigned twice keeps the last value.
    mutating func assign(_ column: String, _ value: QueryFragment) {
        if let index = assignments.firstIndex(where: { $0.column == column }) {
            assignments[index].value = value
        } else {
            assignments.append((column, value))
        }
    }
}

// Operators on the existential column values of an `update { }` closure: Swift does not open an
// existential for an operator, so these take `any QueryExpression` explicitly.

/// `NOT x` for a column in an `update { }` closure: `$0.isDone = !$0.isDone`.
@_disfavoredOverload
public prefix func ! (expression: any QueryExpression<Bool>) -> SQLExpression<Bool> {
    SQLExpression("(NOT " + expression.queryFragment + ")")
}

/// `x = (x + ?)` for a column in an `update { }` closure: `$0.views += 1`, also on an optional column.
@_disfavoredOverload
public func += <Value: QueryNumeric>(lhs: inout any QueryExpression<Value>, rhs: Value.QueryOutput) {
    lhs = SQLExpression<Value>(Operators.binary(lhs.queryFragment, "+", Value.bound(rhs)))
}

/// `x = (x + y)` with another column or expression, as an upsert's `tag.uses += excluded.uses`.
///
/// It takes the expression type rather than any expression: a number is an expression too, and
/// `$0.views += 1` would otherwise match both overloads equally.
@_disfavoredOverload
public func += <Value: QueryNumeric>(lhs: inout any QueryExpression<Value>, rhs: SQLExpression<Value>) {
    lhs = SQLExpression<Value>(Operators.binary(lhs.queryFragment, "+", rhs.queryFragment))
}

/// `x = (x || ?)` for a text column in an `update { }` closure: `$0.title += " (draft)"` appends.
@_disfavoredOverload
public func += <Value: QueryText>(lhs: inout any QueryExpression<Value>, rhs: String) {
    lhs = SQLExpression<Value>(Operators.binary(lhs.queryFragment, "||", String.bound(rhs)))
}

/// `x = (x - ?)` for a column in an `update { }` closure: `$0.stock -= 1`.
@_disfavoredOverload
public func -= <Value: QueryNumeric>(lhs: inout any QueryExpression<Value>, rhs: Value.QueryOutput) {
    lhs = SQLExpression<Value>(Operators.binary(lhs.queryFragment, "-", Value.bound(rhs)))
}

/// `x = (x * ?)` for a column in an `update { }` closure: `$0.estimate *= 2`.
@_disfavoredOverload
public func *= <Value: QueryNumeric>(lhs: inout any QueryExpression<Value>, rhs: Value.QueryOutput) {
    lhs = SQLExpression<Value>(Operators.binary(lhs.queryFragment, "*", Value.bound(rhs)))
}

/// `x = (x / ?)` for a column in an `update { }` closure: `$0.estimate /= 2` (integer division for
/// integers, NULL for a zero divisor).
@_disfavoredOverload
public func /= <Value: QueryNumeric>(lhs: inout any QueryExpression<Value>, rhs: Value.QueryOutput) {
    lhs = SQLExpression<Value>(Operators.binary(lhs.queryFragment, "/", Value.bound(rhs)))
}

// In an `update { }` closure a numeric column reads as an `SQLExpression`, so negating it in place
// assigns its negation, as `Int.negate()` reads in Swift.
extension SQLExpression where QueryValue: QueryNumeric {
    /// Replaces the expression with its negation; on an updated column, assigns `column = (-column)`.
    public mutating func negate() {
        self = SQLExpression("(-" + queryFragment + ")")
    }
}

/// `x = (x || y)` with another text column or expression: `$0.title += $0.notes.coalesce("")`.
@_disfavoredOverload
public func += (lhs: inout any QueryExpression<String>, rhs: SQLExpression<String>) {
    lhs = SQLExpression<String>(Operators.binary(lhs.queryFragment, "||", rhs.queryFragment))
}

// In an `update { }` closure a text column reads as an `SQLExpression<String>`, so appending to it
// in place assigns the joined text, as `String.append` reads in Swift.
extension SQLExpression<String> {
    /// Appends `suffix`; on an updated column, assigns `column = (column || ?)`: `$0.title.append("!")`.
    public mutating func append(_ suffix: String) {
        self = SQLExpression(Operators.binary(queryFragment, "||", String.bound(suffix)))
    }

    /// Appends another text expression: `$0.title.append($0.notes.coalesce(""))`.
    public mutating func append(_ suffix: some QueryExpression<String>) {
        self = SQLExpression(Operators.binary(queryFragment, "||", suffix.queryFragment))
    }

    /// Appends `suffix`, as `String.append(contentsOf:)` reads: `$0.title.append(contentsOf: " (copy)")`.
    public mutating func append(contentsOf suffix: some QueryExpression<String>) {
        append(suffix)
    }
}

extension Table {
    /// Updates the columns the closure assigns, on every row (narrow it with `where`).
    public static func update(_ assign: (inout Updates<Self>) -> Void) -> Update<Self> {
        var updates = Updates<Self>()
        assign(&updates)
        return Update(assignments: updates.assignments, wheres: [])
    }
}

extension PrimaryKeyedTable {
    /// Writes every writable column of `row` to the row with its primary key.
    public static func update(_ row: Self) -> Update<Self> {
        var encoder = RowEncoder()
        row.encodeColumns(into: &encoder)
        let names = Insert<Self>.insertColumns
        let key = columns.primaryKey.name
        var assignments: [(column: String, value: QueryFragment)] = []
        var keyValue = DatabaseValue.null
        for (name, value) in zip(names, encoder.values) {
            if name == key { keyValue = value } else { assignments.append((name, QueryFragment(binding: value))) }
        }
        let condition = QueryFragment(columns.primaryKey.queryFragment.sql + " = ?", bindings: [keyValue])
        return Update(assignments: assignments, wheres: [condition])
    }
}

extension Select where Columns: TableDefinition, Output == Columns.Root {
    /// Updates the rows this select's filter picks.
    public func update(_ assign: (inout Updates<Output>) -> Void) -> Update<Output> {
        var updates = Updates<Output>()
        assign(&updates)
        return Update(assignments: updates.assignments, wheres: clauses.wheres)
    }
}

/// An update holds only SQL text and bound values, so it can be built on one actor and run on another.
extension Update: Sendable {}
