import BoutiqueSQLite

/// Enums and other raw-value types are stored as their raw value. Declare the conformance to use one
/// in a column: `enum Priority: Int, QueryBindable { case low, medium, high }`.
extension QueryBindable where Self: RawRepresentable, RawValue: QueryBindable {
    /// Reads the raw value and the case it names; a raw value that names no case is an error.
    public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> Self {
        let start = decoder.columnIndex
        let raw = try RawValue.decode(from: &decoder)
        guard let value = Self(rawValue: raw) else {
            decoder.columnIndex = start
            throw decoder.failure(expected: "\(Self.self)", found: "\(raw), which is not a case")
        }
        return value
    }

    /// The raw value, stored as its own type stores it.
    public static func encode(_ output: Self) -> DatabaseValue { RawValue.encode(output.rawValue) }

    /// The raw value's SQL type.
    public static var sqlType: SQLType { RawValue.sqlType }

    /// The raw value's form: a `Codable` enum with raw values reads its raw value.
    public static var jsonValueForm: JSONValueForm { RawValue.jsonValueForm }
}
