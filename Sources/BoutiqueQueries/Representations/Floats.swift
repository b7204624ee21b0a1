import BoutiqueSQLite

extension Double: QueryBindable {
    @inlinable
    public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> Double {
        try decoder.decodeDouble(expected: "Double")
    }

    @inlinable
    public static func encode(_ output: Double) -> DatabaseValue { .real(output) }

    @inlinable
    public static func bind(_ output: Double, to statement: Statement, at index: Int32) throws(SQLiteError) {
        try statement.bind(output, at: index)
    }

    public static var sqlType: SQLType { .real }
}

extension Float: QueryBindable {
    @inlinable
    public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> Float {
        Float(try decoder.decodeDouble(expected: "Float"))
    }

    @inlinable
    public static func encode(_ output: Float) -> DatabaseValue { .real(Double(output)) }

    public static var sqlType: SQLType { .real }
}
