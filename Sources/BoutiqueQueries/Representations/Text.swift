import BoutiqueSQLite

extension String: QueryBindable {
    /// Text as stored; numbers read as their text. NULL, blobs and invalid UTF-8 are errors.
    @inlinable
    public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> String {
        switch decoder.currentStorageClass {
        case .null, .blob: throw decoder.failure(expected: "String")
        default: break
        }
        do {
            let value = try decoder.statement.string(at: decoder.columnIndex)
            decoder.columnIndex += 1
            return value
        } catch {
            throw decoder.failure(expected: "String", found: "text that is not valid UTF-8")
        }
    }

    @inlinable
    public static func encode(_ output: String) -> DatabaseValue { .text(output) }

    @inlinable
    public static func bind(_ output: String, to statement: Statement, at index: Int32) throws(SQLiteError) {
        try statement.bind(output, at: index)
    }

    public static var sqlType: SQLType { .text }
}
