import BoutiqueSQLite

/// Non-generic ``RowEncoder/encode(_:as:)`` for the standard library types most columns hold.
///
/// `@Table` calls these for a column whose type is one of them and is its own representation:
/// `encoder.encode(self.title)` rather than `encoder.encode(self.title, as: String.self)`. The result is
/// the same; what differs is the code a debug build makes of it. A generic call needs the type's
/// metadata and witness table, a temporary copy of the value and a specialization lookup, and at one
/// call per column in each of a model's `encodeColumns(into:)` and its `Draft`'s, those were a large
/// part of the cost of compiling a model. Optimized builds inline both forms to the same binding; they
/// are `@inline(__always)` because otherwise the optimizer kept them out of line and merged the ten into
/// one function that bound each value through a witness table (an insert of 50,000 rows went from 1.23×
/// to 1.28× the raw C API's instructions).
extension RowEncoder {
    /// Appends a `Int` column's value: the same as `encode(value, as: Int.self)`.
    @inlinable @inline(__always) public mutating func encode(_ value: Int) { encode(value, as: Int.self) }
    /// Appends a `Int?` column's value: the same as `encode(value, as: Int?.self)`.
    @inlinable @inline(__always) public mutating func encode(_ value: Int?) { encode(value, as: Int?.self) }
    /// Appends a `Int64` column's value: the same as `encode(value, as: Int64.self)`.
    @inlinable @inline(__always) public mutating func encode(_ value: Int64) { encode(value, as: Int64.self) }
    /// Appends a `Int64?` column's value: the same as `encode(value, as: Int64?.self)`.
    @inlinable @inline(__always) public mutating func encode(_ value: Int64?) { encode(value, as: Int64?.self) }
    /// Appends a `Double` column's value: the same as `encode(value, as: Double.self)`.
    @inlinable @inline(__always) public mutating func encode(_ value: Double) { encode(value, as: Double.self) }
    /// Appends a `Double?` column's value: the same as `encode(value, as: Double?.self)`.
    @inlinable @inline(__always) public mutating func encode(_ value: Double?) { encode(value, as: Double?.self) }
    /// Appends a `Bool` column's value: the same as `encode(value, as: Bool.self)`.
    @inlinable @inline(__always) public mutating func encode(_ value: Bool) { encode(value, as: Bool.self) }
    /// Appends a `Bool?` column's value: the same as `encode(value, as: Bool?.self)`.
    @inlinable @inline(__always) public mutating func encode(_ value: Bool?) { encode(value, as: Bool?.self) }
    /// Appends a `String` column's value: the same as `encode(value, as: String.self)`.
    @inlinable @inline(__always) public mutating func encode(_ value: String) { encode(value, as: String.self) }
    /// Appends a `String?` column's value: the same as `encode(value, as: String?.self)`.
    @inlinable @inline(__always) public mutating func encode(_ value: String?) { encode(value, as: String?.self) }
}
