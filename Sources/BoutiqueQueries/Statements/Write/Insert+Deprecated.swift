/// StructuredQueries' earlier insert spellings, which it keeps deprecated: code written against them
/// compiles here too, with the same warning and the same statement.
///
/// ```swift
/// Reminder.insert(reminder)                                          // Reminder.insert { reminder }
/// Reminder.insert(draft, onConflict: { $0.title += " (copy)" })      // Reminder.insert { draft } onConflictDoUpdate: { … }
/// ```
extension Table {
    /// Inserts `row`, and with `updates`, updates the row it conflicts with instead:
    /// `insert { row }`, or `insert { row } onConflictDoUpdate: updates`.
    @available(*, deprecated, message: "write a trailing closure: 'Table.insert { row }'")
    public static func insert(_ row: Self, onConflict updates: ((inout Updates<Self>) -> Void)? = nil) -> Insert<Self> {
        guard let updates else { return insert { row } }
        return insert({ row }, onConflictDoUpdate: updates)
    }

    /// Inserts `rows`, and with `updates`, updates the rows they conflict with instead:
    /// `insert { rows }`, or `insert { rows } onConflictDoUpdate: updates`.
    @available(*, deprecated, message: "write a trailing closure: 'Table.insert { rows }'")
    public static func insert(_ rows: [Self], onConflict updates: ((inout Updates<Self>) -> Void)?) -> Insert<Self> {
        guard let updates else { return insert { rows } }
        return insert({ rows }, onConflictDoUpdate: updates)
    }

    /// Inserts rows of values, and with `updates`, updates the rows they conflict with instead:
    /// `insert(columns, values: values, onConflictDoUpdate: updates)`.
    @available(*, deprecated, renamed: "insert(_:values:onConflictDoUpdate:)")
    public static func insert<each V: QueryRepresentable>(
        _ columns: (TableColumns) -> (repeat TableColumn<Self, each V>),
        @InsertColumnValuesBuilder<(repeat each V)> values: () -> [[QueryFragment]],
        onConflict updates: ((inout Updates<Self>) -> Void)?
    ) -> InsertValues<Self> {
        guard let updates else { return insert(columns, values: values) }
        return insert(columns, values: values, onConflictDoUpdate: updates)
    }
}

extension PrimaryKeyedTable {
    /// Inserts the draft `row`, and with `updates`, updates the row it conflicts with instead:
    /// `insert { row }`, or `insert { row } onConflictDoUpdate: updates`.
    @available(*, deprecated, message: "write a trailing closure: 'Table.insert { draft }'")
    public static func insert(_ row: Draft, onConflict updates: ((inout Updates<Self>) -> Void)? = nil) -> Insert<Self> {
        guard let updates else { return insert { row } }
        return insert({ row }, onConflictDoUpdate: updates)
    }

    /// Inserts the drafts `rows`, and with `updates`, updates the rows they conflict with instead:
    /// `insert { rows }`, or `insert { rows } onConflictDoUpdate: updates`.
    @available(*, deprecated, message: "write a trailing closure: 'Table.insert { drafts }'")
    public static func insert(_ rows: [Draft], onConflict updates: ((inout Updates<Self>) -> Void)? = nil) -> Insert<Self> {
        guard let updates else { return insert { rows } }
        return insert({ rows }, onConflictDoUpdate: updates)
    }
}
