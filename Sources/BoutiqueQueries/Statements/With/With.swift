/// A statement preceded by common table expressions: `WITH "name"("column", …) AS (select) statement`.
///
/// Each expression is a select whose row type is a ``Table``; its rows are readable under that table's
/// name (and column names) in the statement and in the expressions after it. A select that refers to
/// its own table (through a `union`) is recursive:
///
/// ```swift
/// With {
///     Count(value: 1).union(Count.select { Count.Columns(value: $0.value + 1) })
/// } query: {
///     Count.limit(10)
/// }
/// ```
///
/// The column names are listed after the table name, so the select's columns need no `AS` aliases.
public struct With<Base: QueryStatement>: QueryStatement {
    public typealias Row = Base.Row

    let expressions: [CommonTableExpressionClause]
    let base: Base

    /// The statement `query` returns, with the common table expressions `expressions` lists.
    public init(
        @CommonTableExpressionBuilder _ expressions: () -> [CommonTableExpressionClause],
        query: () -> Base
    ) {
        self.expressions = expressions()
        self.base = query()
    }

    public var query: QueryFragment {
        guard !expressions.isEmpty else { return base.query }
        return "WITH " + expressions.map(\.queryFragment).joined(separator: ", ") + " " + base.query
    }

    public var rowSource: String { base.rowSource }

    public func decodeRow(_ decoder: inout RowDecoder) throws(BoutiqueError) -> Base.Row {
        try base.decodeRow(&decoder)
    }
}

/// A `WITH` statement can move between isolation domains when its statement can.
extension With: Sendable where Base: Sendable {}

extension With: PartialSelectStatement where Base: PartialSelectStatement {
    public var rowDecoder: @Sendable (inout RowDecoder) throws(BoutiqueError) -> Base.Row { base.rowDecoder }
}

/// One common table expression: `"name"("column", …) AS (select)`.
public struct CommonTableExpressionClause: Sendable {
    /// The expression's SQL and bindings.
    public let queryFragment: QueryFragment
}

/// Lists the common table expressions of a ``With`` statement, one select per line.
@resultBuilder
public enum CommonTableExpressionBuilder {
    /// A select whose rows are those of the table `CTETable`, named after it.
    public static func buildExpression<CTETable: Table>(
        _ select: some PartialSelectStatement<CTETable>
    ) -> CommonTableExpressionClause {
        let columns = CTETable.TableColumns.allColumns.map { SQLIdentifier.quote($0.name) }.joined(separator: ", ")
        return CommonTableExpressionClause(
            queryFragment: CTETable.quotedTableName + "(" + columns + ") AS (" + select.query + ")")
    }

    /// The expressions, in order.
    public static func buildBlock(_ expressions: CommonTableExpressionClause...) -> [CommonTableExpressionClause] {
        expressions
    }
}
