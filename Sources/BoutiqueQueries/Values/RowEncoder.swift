import BoutiqueSQLite

/// Receives the values of a row's insertable columns, in column order.
///
/// Generated `encodeColumns(into:)` methods call ``encode(_:as:)`` once per insertable column. An encoder
/// either collects the values (to show a statement's bindings, or to keep a row for later), or binds
/// them straight to the parameters of a prepared statement, which is how inserts run: no intermediate
/// array, no ``/BoutiqueSQLite/DatabaseValue`` boxing.
public struct RowEncoder {
    /// The collected values, in column order (empty when binding to a statement).
    public var values: [DatabaseValue]

    // An encoder lives only inside the call that binds one row, while its creator holds the statement,
    // so it keeps an unretained reference and lends it out without a retain and release per value.
    @usableFromInline let statement: Unmanaged<BoutiqueSQLite.Statement>?
    @usableFromInline var parameterIndex: Int32 = 1
    /// The first binding failure; encoding goes on so that generated code needs no `try`.
    @usableFromInline var bindingError: SQLiteError?

    /// An encoder that collects values.
    @inlinable
    public init(capacity: Int = 0) {
        values = []
        values.reserveCapacity(capacity)
        statement = nil
    }

    /// An encoder that binds each value to the next parameter of `statement`, starting at 1.
    @inlinable
    public init(binding statement: BoutiqueSQLite.Statement) {
        values = []
        self.statement = Unmanaged.passUnretained(statement)
    }

    /// Encodes `value` stored with `representation`.
    @inlinable @inline(__always)
    public mutating func encode<R: QueryRepresentable>(_ value: R.QueryOutput, as representation: R.Type) {
        // A group of columns writes each of its own (a check the optimizer removes for other types).
        if let columns = R.groupedColumns {
            // An optional group that is `nil` writes NULL in each of its written columns.
            guard let group = value as? any Table else {
                for column in columns where column.isWritable { encode(Optional<Int>.none, as: Int?.self) }
                return
            }
            group.encodeColumns(into: &self)
            return
        }
        if let statement {
            let index = parameterIndex
            let failure = statement._withUnsafeGuaranteedRef { statement -> SQLiteError? in
                do throws(SQLiteError) {
                    try R.bind(value, to: statement, at: index)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure, bindingError == nil { bindingError = failure }
            parameterIndex += 1
        } else {
            values.append(R.encode(value))
        }
    }

    /// Empties the encoder, keeping its storage for the next row.
    @inlinable
    public mutating func removeAll() {
        values.removeAll(keepingCapacity: true)
        parameterIndex = 1
    }

    /// Throws the first binding failure, if any.
    @inlinable
    public func checkBindings() throws(SQLiteError) {
        if let bindingError { throw bindingError }
    }
}
