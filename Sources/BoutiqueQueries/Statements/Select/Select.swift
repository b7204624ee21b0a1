import BoutiqueSQLite

/// A `SELECT` statement: where it reads from, the column handles its closures receive, and the Swift type
/// of each row.
///
/// ```swift
/// let recent = Note.where { !$0.isPinned }
///     .order { $0.updatedAt.desc() }
///     .limit(10)
/// let notes = try recent.fetchAll(connection)          // [Note]
/// let titles = try recent.select { $0.title }.fetchAll(connection)   // [String]
/// ```
///
/// `Columns` is a table's ``TableDefinition`` (`$0`), or a tuple of them after a join (`$0`, `$1`).
@dynamicMemberLookup
public struct Select<Columns, Output>: QueryStatement {
    public typealias Row = Output

    /// The column handles the builder's closures receive.
    public let columns: Columns
    @usableFromInline var clauses: SelectClauses
    @usableFromInline let decoder: @Sendable (inout RowDecoder) throws(BoutiqueError) -> Output
    public let rowSource: String

    @usableFromInline
    init(
        columns: Columns, clauses: SelectClauses, rowSource: String,
        decoder: @escaping @Sendable (inout RowDecoder) throws(BoutiqueError) -> Output
    ) {
        self.columns = columns
        self.clauses = clauses
        self.rowSource = rowSource
        self.decoder = decoder
    }

    public var query: QueryFragment { clauses.fragment }

    @inlinable
    public func decodeRow(_ decoder: inout RowDecoder) throws(BoutiqueError) -> Output {
        try self.decoder(&decoder)
    }

    /// The same statement with other clauses.
    func with(_ change: (inout SelectClauses) -> Void) -> Self {
        var copy = self
        change(&copy.clauses)
        return copy
    }

    /// The same clauses with another row type.
    func selecting<NewOutput>(
        _ terms: [QueryFragment], decoder: @escaping @Sendable (inout RowDecoder) throws(BoutiqueError) -> NewOutput
    ) -> Select<Columns, NewOutput> {
        var clauses = self.clauses
        clauses.selection = terms.joined(separator: ", ")
        clauses.selectedTerms = terms
        return Select<Columns, NewOutput>(columns: columns, clauses: clauses, rowSource: rowSource, decoder: decoder)
    }

    /// Removes duplicate rows: `SELECT DISTINCT`.
    public func distinct(_ isDistinct: Bool = true) -> Self {
        with { $0.distinct = isDistinct }
    }

    /// At most `count` rows, after skipping `offset`.
    public func limit(_ count: Int, offset: Int? = nil) -> Self {
        with {
            $0.limit = QueryFragment(binding: .integer(Int64(count)))
            if let offset { $0.offset = QueryFragment(binding: .integer(Int64(offset))) }
        }
    }

    /// Skips the first `count` rows; `nil` leaves the offset as it was. A limit set before or after
    /// is kept: `.limit(10).offset(20)` reads rows 21 to 30.
    public func offset(_ count: Int?) -> Self {
        guard let count else { return self }
        return with { $0.offset = QueryFragment(binding: .integer(Int64(count))) }
    }

    /// The number of rows the statement returns: `SELECT count(*) FROM (…)`.
    public func count() -> Select<Columns, Int> {
        var inner = clauses
        inner.orderBy = []
        var counting = SelectClauses(from: "(" + inner.fragment + ")", defaultSelection: QueryFragment("count(*)"))
        counting.selectedTerms = [QueryFragment("count(*)")]
        return Select<Columns, Int>(
            columns: columns, clauses: counting, rowSource: rowSource,
            decoder: { (decoder) throws(BoutiqueError) in try Int.decode(from: &decoder) })
    }

    /// This select as a statement in its own right (the spelling StructuredQueries uses for live queries).
    public func asSelect() -> Self { self }
}

/// A select is a value that can be handed to another isolation domain (a reader, a live query) when its
/// column handles can; its row decoder captures nothing.
extension Select: Sendable where Columns: Sendable {}

extension Table {
    /// Every row of the table.
    @inlinable
    public static var all: Select<TableColumns, Self> {
        Select(
            columns: columns,
            clauses: SelectClauses(from: QueryFragment(fromClause), defaultSelection: columns.queryFragment),
            rowSource: tableName, decoder: { (decoder) throws(BoutiqueError) in try Self(decoder: &decoder) })
    }

    /// The rows for which `predicate` holds.
    public static func `where`(_ predicate: (TableColumns) -> some QueryExpression<Bool>) -> Select<TableColumns, Self> {
        all.where(predicate)
    }

    /// The number of rows: `SELECT count(*) FROM "table"`.
    public static func count() -> Select<TableColumns, Int> {
        all.select { _ in SQLExpression<Int>("count(*)") }
    }

    /// The rows ordered by `ordering`.
    public static func order(_ ordering: (TableColumns) -> some QueryOrdering) -> Select<TableColumns, Self> {
        all.order(ordering)
    }

    /// The rows ordered by several keys: `Note.order { ($0.isPinned.desc(), $0.title) }`.
    public static func order<each Term: QueryOrdering>(
        _ ordering: (TableColumns) -> (repeat each Term)
    ) -> Select<TableColumns, Self> {
        all.order(ordering)
    }

    /// The given columns or expressions of every row.
    public static func select<E: QueryExpression>(
        _ selection: (TableColumns) -> E
    ) -> Select<TableColumns, E.QueryValue.QueryOutput> where E.QueryValue: QueryRepresentable {
        all.select(selection)
    }

    /// Several columns or expressions of every row, as a tuple: `Note.select { ($0.id, $0.title) }`.
    public static func select<each E: QueryExpression>(
        _ selection: (TableColumns) -> (repeat each E)
    ) -> Select<TableColumns, (repeat (each E).QueryValue.QueryOutput)> where repeat (each E).QueryValue: QueryRepresentable {
        all.select(selection)
    }

    /// At most `count` rows.
    public static func limit(_ count: Int, offset: Int? = nil) -> Select<TableColumns, Self> {
        all.limit(count, offset: offset)
    }

    /// Every row after the first `count`: `LIMIT -1 OFFSET ?`.
    public static func offset(_ count: Int?) -> Select<TableColumns, Self> {
        all.offset(count)
    }

    /// Distinct rows.
    public static func distinct() -> Select<TableColumns, Self> { all.distinct() }

    /// The rows grouped by one key: `Reminder.group(by: \.listID).select { ($0.listID, $0.id.count()) }`.
    public static func group(by key: (TableColumns) -> some QueryExpression) -> Select<TableColumns, Self> {
        all.group(by: key)
    }

    /// The rows grouped by several keys: `Reminder.group { ($0.listID, $0.isDone) }`.
    public static func group<each Key: QueryExpression>(
        by keys: (TableColumns) -> (repeat each Key)
    ) -> Select<TableColumns, Self> {
        all.group(by: keys)
    }
}

extension PrimaryKeyedTable {
    /// The row whose primary key is `key` (fetch it with `fetchOne`).
    public static func find(_ key: TableColumns.PrimaryKey.QueryOutput) -> Select<TableColumns, Self> {
        let column = columns.primaryKey
        return all.where { _ in SQLExpression<Bool>(Operators.binary(column.queryFragment, "=", QueryFragment(binding: TableColumns.PrimaryKey.encode(key)))) }
    }

    /// The rows whose primary keys are among `keys`.
    public static func find(_ keys: some Sequence<TableColumns.PrimaryKey.QueryOutput>) -> Select<TableColumns, Self> {
        let column = columns.primaryKey
        let list = keys.map { QueryFragment(binding: TableColumns.PrimaryKey.encode($0)) }.joined(separator: ", ")
        return all.where { _ in SQLExpression<Bool>(column.queryFragment + " IN (" + list + ")") }
    }
}
