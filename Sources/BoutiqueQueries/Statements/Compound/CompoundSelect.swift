/// Two or more selects combined with `UNION`, `UNION ALL`, `INTERSECT` or `EXCEPT`.
///
/// ```swift
/// Reminder.select { $0.title }
///     .union(RemindersList.select { $0.name })       // SELECT … UNION SELECT …
/// ```
///
/// Every part reads the same row type; rows are decoded the way the first part decodes them.
public struct CompoundSelect<Output>: PartialSelectStatement {
    public typealias Row = Output

    @usableFromInline let body: QueryFragment
    @usableFromInline let decoder: @Sendable (inout RowDecoder) throws(BoutiqueError) -> Output
    public let rowSource: String
    var limit: QueryFragment?
    var offset: QueryFragment?

    init(
        body: QueryFragment, rowSource: String,
        decoder: @escaping @Sendable (inout RowDecoder) throws(BoutiqueError) -> Output
    ) {
        self.body = body
        self.rowSource = rowSource
        self.decoder = decoder
    }

    public var query: QueryFragment {
        var query = body
        query.append(SelectClauses.limitClause(limit: limit, offset: offset))
        return query
    }

    public var rowDecoder: @Sendable (inout RowDecoder) throws(BoutiqueError) -> Output { decoder }

    public func decodeRow(_ decoder: inout RowDecoder) throws(BoutiqueError) -> Output {
        try self.decoder(&decoder)
    }

    /// At most `count` rows of the combined result, after skipping `offset`.
    public func limit(_ count: Int, offset: Int? = nil) -> Self {
        var copy = self
        copy.limit = QueryFragment(binding: .integer(Int64(count)))
        if let offset { copy.offset = QueryFragment(binding: .integer(Int64(offset))) }
        return copy
    }

    /// The combined rows after skipping `count` of them: `LIMIT -1 OFFSET ?` when no limit is set.
    public func offset(_ count: Int) -> Self {
        var copy = self
        copy.offset = QueryFragment(binding: .integer(Int64(count)))
        return copy
    }
}

/// A compound select's parts are SQL and a decoder that captures nothing.
extension CompoundSelect: Sendable {}

/// The set operators that combine selects.
enum CompoundOperator: String {
    case union = "UNION"
    case unionAll = "UNION ALL"
    case intersect = "INTERSECT"
    case except = "EXCEPT"
}

extension PartialSelectStatement {
    /// The rows of this select and of `other`, without duplicates (`UNION`), or all of them when
    /// `all` is `true` (`UNION ALL`).
    public func union(all: Bool = false, _ other: some PartialSelectStatement<Row>) -> CompoundSelect<Row> {
        combined(all ? .unionAll : .union, other)
    }

    /// The rows that this select and `other` both return: `INTERSECT`.
    public func intersect(_ other: some PartialSelectStatement<Row>) -> CompoundSelect<Row> {
        combined(.intersect, other)
    }

    /// The rows of this select that `other` does not return: `EXCEPT`.
    public func except(_ other: some PartialSelectStatement<Row>) -> CompoundSelect<Row> {
        combined(.except, other)
    }

    /// `self <operator> other`, decoded as this statement decodes its rows.
    func combined(_ op: CompoundOperator, _ other: some PartialSelectStatement<Row>) -> CompoundSelect<Row> {
        CompoundSelect(body: query + " " + op.rawValue + " " + other.query, rowSource: rowSource, decoder: rowDecoder)
    }
}
