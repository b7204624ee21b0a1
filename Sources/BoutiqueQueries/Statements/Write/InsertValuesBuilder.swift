import BoutiqueSQLite

/// One row to insert: a whole row, kept as the Swift value until the statement runs, or the encoded
/// values of a draft.
public enum InsertRow<Root: Table> {
    /// A whole row.
    case row(Root)
    /// The encoded values of the insertable columns, in column order (a draft's).
    case values([DatabaseValue])

    /// The values of the insertable columns, in column order.
    public var values: [DatabaseValue] {
        switch self {
        case .row(let row):
            var encoder = RowEncoder(capacity: Root.TableColumns.allColumns.count)
            row.encodeColumns(into: &encoder)
            return encoder.values
        case .values(let values):
            return values
        }
    }

    /// Binds the row's values to parameters 1… of `statement`.
    @inlinable
    func bind(to statement: BoutiqueSQLite.Statement) throws(SQLiteError) {
        switch self {
        case .row(let row):
            var encoder = RowEncoder(binding: statement)
            row.encodeColumns(into: &encoder)
            try encoder.checkBindings()
        case .values(let values):
            var index: Int32 = 1
            for value in values {
                try statement.bind(value, at: index)
                index += 1
            }
        }
    }
}

/// The rows an `insert { }` builder has gathered so far.
///
/// A single row is kept inline, so a `for` loop over thousands of rows allocates nothing per row: the
/// builder gathers all iterations into one array at the end.
public enum InsertRows<Root: Table> {
    /// A single row.
    case one(InsertRow<Root>)
    /// Any number of rows, in order.
    case many([InsertRow<Root>])

    /// Every row, in order.
    @inlinable
    public var rows: [InsertRow<Root>] {
        switch self {
        case .one(let row): [row]
        case .many(let rows): rows
        }
    }

    @inlinable
    var count: Int {
        switch self {
        case .one: 1
        case .many(let rows): rows.count
        }
    }

    @inlinable
    static func gathering(_ components: some Collection<InsertRows<Root>>) -> InsertRows<Root> {
        var rows: [InsertRow<Root>] = []
        rows.reserveCapacity(components.reduce(0) { $0 + $1.count })
        for component in components {
            switch component {
            case .one(let row): rows.append(row)
            case .many(let more): rows += more
            }
        }
        return .many(rows)
    }
}

/// Builds the rows of an `insert { }` or `upsert { }`: whole rows, drafts, and `for`/`if` over them.
///
/// ```swift
/// Note.insert {
///     Note(id: UUID(), title: "Groceries", body: "")
///     for title in titles { Note.Draft(title: title, body: "") }
///     if includeExample { Note.Draft(title: "Example", body: "") }
/// }
/// ```
@resultBuilder
public enum InsertValuesBuilder<Root: Table> {
    /// A row listed on its own.
    @inlinable
    public static func buildExpression(_ row: Root) -> InsertRows<Root> { .one(.row(row)) }

    /// An array of rows.
    @inlinable
    public static func buildExpression(_ rows: [Root]) -> InsertRows<Root> { .many(rows.map { .row($0) }) }

    /// The rows of every line, in order.
    @inlinable
    public static func buildBlock(_ components: InsertRows<Root>...) -> InsertRows<Root> {
        if components.count == 1 { return components[0] }
        return .gathering(components)
    }

    /// The rows of every iteration of a `for` loop.
    @inlinable
    public static func buildArray(_ components: [InsertRows<Root>]) -> InsertRows<Root> {
        .gathering(components)
    }

    /// The rows of an `if` without `else`; none when the condition is false.
    @inlinable
    public static func buildOptional(_ component: InsertRows<Root>?) -> InsertRows<Root> {
        component ?? .many([])
    }

    /// The rows of an `if` branch.
    @inlinable
    public static func buildEither(first component: InsertRows<Root>) -> InsertRows<Root> { component }

    /// The rows of an `else` branch.
    @inlinable
    public static func buildEither(second component: InsertRows<Root>) -> InsertRows<Root> { component }
}

extension InsertValuesBuilder where Root: PrimaryKeyedTable {
    /// A draft: a row whose primary key the database assigns.
    public static func buildExpression(_ draft: Root.Draft) -> InsertRows<Root> {
        var encoder = RowEncoder(capacity: Root.TableColumns.allColumns.count)
        draft.encodeColumns(into: &encoder)
        return .one(.values(encoder.values))
    }

    /// An array of drafts.
    public static func buildExpression(_ drafts: [Root.Draft]) -> InsertRows<Root> {
        .gathering(drafts.map { buildExpression($0) })
    }
}

extension InsertRow: Sendable where Root: Sendable {}
