import BoutiqueSQLite

/// One row to insert: the values of a table's insertable columns, in order.
public struct InsertRow<Root: Table>: Sendable {
    /// The encoded values.
    public var values: [DatabaseValue]
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
    public static func buildExpression(_ row: Root) -> [InsertRow<Root>] {
        var encoder = RowEncoder(capacity: Root.TableColumns.allColumns.count)
        row.encodeColumns(into: &encoder)
        return [InsertRow(values: encoder.values)]
    }

    public static func buildExpression(_ rows: [Root]) -> [InsertRow<Root>] {
        rows.flatMap { buildExpression($0) }
    }

    public static func buildBlock(_ components: [InsertRow<Root>]...) -> [InsertRow<Root>] {
        components.flatMap { $0 }
    }

    public static func buildArray(_ components: [[InsertRow<Root>]]) -> [InsertRow<Root>] {
        components.flatMap { $0 }
    }

    public static func buildOptional(_ component: [InsertRow<Root>]?) -> [InsertRow<Root>] { component ?? [] }

    public static func buildEither(first component: [InsertRow<Root>]) -> [InsertRow<Root>] { component }

    public static func buildEither(second component: [InsertRow<Root>]) -> [InsertRow<Root>] { component }
}

extension InsertValuesBuilder where Root: PrimaryKeyedTable {
    public static func buildExpression(_ draft: Root.Draft) -> [InsertRow<Root>] {
        var encoder = RowEncoder(capacity: Root.TableColumns.allColumns.count)
        draft.encodeColumns(into: &encoder)
        return [InsertRow(values: encoder.values)]
    }

    public static func buildExpression(_ drafts: [Root.Draft]) -> [InsertRow<Root>] {
        drafts.flatMap { buildExpression($0) }
    }
}
