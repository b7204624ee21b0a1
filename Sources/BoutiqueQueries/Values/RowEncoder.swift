import BoutiqueSQLite

/// Collects the values of a row's insertable columns, in column order.
///
/// Generated `encodeColumns(into:)` methods call ``encode(_:as:)`` once per insertable column.
public struct RowEncoder {
    /// The encoded values, in column order.
    public var values: [DatabaseValue]

    @inlinable
    public init(capacity: Int = 0) {
        values = []
        values.reserveCapacity(capacity)
    }

    /// Appends `value` stored with `representation`.
    @inlinable
    public mutating func encode<R: QueryRepresentable>(_ value: R.QueryOutput, as representation: R.Type) {
        values.append(R.encode(value))
    }

    /// Empties the encoder, keeping its storage for the next row.
    @inlinable
    public mutating func removeAll() { values.removeAll(keepingCapacity: true) }
}
