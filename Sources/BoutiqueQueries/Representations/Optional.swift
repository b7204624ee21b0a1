import BoutiqueSQLite

extension Optional: QueryRepresentable where Wrapped: QueryRepresentable {
    public typealias QueryOutput = Wrapped.QueryOutput?

    /// An optional column is nullable already.
    public typealias NullableRepresentation = Self

    /// NULL reads as `nil`; anything else as the wrapped representation reads it. An optional group
    /// of columns (`var timestamps: Timestamps?`) is `nil` when all of its columns are NULL, as an
    /// unmatched left-joined table is.
    @inlinable
    public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> Wrapped.QueryOutput? {
        // A check the optimizer removes for representations stored in one column.
        if let columns = Wrapped.groupedColumns {
            guard decoder.nextColumnsAreNull(columns.count) else { return try Wrapped.decode(from: &decoder) }
            decoder.skip(Int32(columns.count))
            return nil
        }
        if decoder.statement.isNull(at: decoder.columnIndex) {
            decoder.columnIndex += 1
            return nil
        }
        return try Wrapped.decode(from: &decoder)
    }

    @inlinable
    public static func encode(_ output: Wrapped.QueryOutput?) -> DatabaseValue {
        guard let output else { return .null }
        return Wrapped.encode(output)
    }

    public static var sqlType: SQLType { Wrapped.sqlType }

    public static var jsonValueForm: JSONValueForm { Wrapped.jsonValueForm }

    public static var isNullable: Bool { true }

    /// The wrapped group's columns, each of which may hold NULL: `nil` is stored as NULL in all of them.
    public static var groupedColumns: [ColumnSchema]? {
        Wrapped.groupedColumns?.map { column in
            var column = column
            column.isNullable = true
            return column
        }
    }

    @inlinable
    public static func bind(
        _ output: Wrapped.QueryOutput?, to statement: Statement, at index: Int32
    ) throws(SQLiteError) {
        guard let output else { return try statement.bindNull(at: index) }
        try Wrapped.bind(output, to: statement, at: index)
    }
}

extension Optional: QueryExpression where Wrapped: QueryBindable {
    public typealias QueryValue = Wrapped?

    /// A bound parameter holding the value, or NULL.
    public var queryFragment: QueryFragment {
        QueryFragment(binding: Self.encode(self))
    }
}

extension Optional: QueryBindable where Wrapped: QueryBindable {}
