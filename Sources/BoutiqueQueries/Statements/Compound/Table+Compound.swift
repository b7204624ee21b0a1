// A table's value as a one-row select, `SELECT ?, ?, …` with its columns' values bound: the seed
// row of a recursive common table expression, `Count(value: 1).union(…)`.

extension Table {
    /// This row, then the rows of `other`: `SELECT ?, … UNION other` (`UNION ALL` when `all`).
    public func union(all: Bool = false, _ other: some PartialSelectStatement<Self>) -> CompoundSelect<Self> {
        rowSelect.union(all: all, other)
    }

    /// This row if `other` returns it too: `SELECT ?, … INTERSECT other`.
    public func intersect(_ other: some PartialSelectStatement<Self>) -> CompoundSelect<Self> {
        rowSelect.intersect(other)
    }

    /// This row unless `other` returns it: `SELECT ?, … EXCEPT other`.
    public func except(_ other: some PartialSelectStatement<Self>) -> CompoundSelect<Self> {
        rowSelect.except(other)
    }

    /// `SELECT ?, ?, …` bound to this row's insertable columns, decoded as the table.
    var rowSelect: CompoundSelect<Self> {
        var encoder = RowEncoder()
        encodeColumns(into: &encoder)
        let values = encoder.values.map { QueryFragment(binding: $0) }
        return CompoundSelect(
            body: "SELECT " + values.joined(separator: ", "), rowSource: Self.tableName,
            decoder: { (decoder) throws(BoutiqueError) in try Self(decoder: &decoder) })
    }
}
