// Filters kept as values and combined: a table's reusable scopes (`static let completed =
// Self.where { … }`), joined with `and`/`or`, or chained by name after other clauses
// (`Reminder.where { … }.notDeleted`), as StructuredQueries' `Where` values combine.

/// The select a table's `where` returns, by the name StructuredQueries gives its filters, for
/// scopes declared as `static var notDeleted: Where<Reminder> { Self.where { !$0.isDeleted } }`.
public typealias Where<Root: Table> = Select<Root.TableColumns, Root>

extension Select where Columns: TableDefinition, Output == Columns.Root {
    /// Keeps the rows both this select's filter and `other`'s keep:
    /// `WHERE (this) AND (other)`. Only `other`'s filter is read.
    ///
    /// ```swift
    /// extension Reminder {
    ///     static let completed = Self.where { $0.isCompleted }
    ///     static let flagged = Self.where { $0.isFlagged }
    /// }
    /// Reminder.completed.and(Reminder.flagged)
    /// ```
    public func and(_ other: Self) -> Self {
        combiningFilter(with: other, "AND")
    }

    /// Keeps the rows either this select's filter or `other`'s keeps: `WHERE (this) OR (other)`.
    /// A side without a filter keeps every row, so the other side's filter is used alone, as
    /// StructuredQueries does.
    public func or(_ other: Self) -> Self {
        combiningFilter(with: other, "OR")
    }

    /// A scope of the table, named after other clauses: `Reminder.where { … }.notDeleted` adds the
    /// filter of `static var notDeleted` to this one, as `and(_:)` does.
    public subscript(dynamicMember keyPath: KeyPath<Output.Type, Self>) -> Self {
        and(Output.self[keyPath: keyPath])
    }

    /// The table's rows without this select's clauses.
    public var unscoped: Select<Output.TableColumns, Output> { Output.all }

    /// The same select, reading no row: its filter gains `WHERE 0`.
    public var none: Self {
        with { $0.wheres.append(QueryFragment("0")) }
    }

    /// This filter and `other`'s joined by `operator`, each side's predicates in parentheses.
    private func combiningFilter(with other: Self, _ operator: String) -> Self {
        let mine = clauses.wheres
        let theirs = other.clauses.wheres
        guard !mine.isEmpty else { return with { $0.wheres = theirs } }
        guard !theirs.isEmpty else { return self }
        let combined = "(" + SelectClauses.conjunction(mine) + ") " + QueryFragment(`operator`) + " ("
            + SelectClauses.conjunction(theirs) + ")"
        return with { $0.wheres = [combined] }
    }
}

extension Table {
    /// Every row, without a scope: the same select as ``all``, for code that spells it as
    /// StructuredQueries does (`Reminder.unscoped.select(\.id)`).
    public static var unscoped: Select<TableColumns, Self> { all }

    /// A select of the table that reads no row: `SELECT … WHERE 0`.
    @_disfavoredOverload
    public static var none: Select<TableColumns, Self> { all.none }
}
