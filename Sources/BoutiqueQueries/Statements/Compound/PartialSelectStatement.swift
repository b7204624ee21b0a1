/// A statement that reads rows and can stand on either side of `UNION`, `INTERSECT` or `EXCEPT`:
/// a ``Select``, a ``Values`` row or a ``CompoundSelect``.
public protocol PartialSelectStatement<Row>: QueryStatement {
    /// Reads one row; a combined statement keeps its first part's, which captures no column handles,
    /// so it stays `Sendable` whatever the part's handles are.
    var rowDecoder: @Sendable (inout RowDecoder) throws(BoutiqueError) -> Row { get }
}

extension Select: PartialSelectStatement {
    public var rowDecoder: @Sendable (inout RowDecoder) throws(BoutiqueError) -> Output { decoder }
}
