import BoutiqueSQLite

/// Enums and other raw-value types are stored as their raw value. Declare the conformance to use one
/// in a column: `enum Priority: Int, QueryBindable { case low, medium, high }`.
extension QueryBindable where Self: RawRepresentable, RawValue: QueryBindable {
    /// Reads the raw value and the case it names; a raw value that names no case is an error.
    public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> Self {
        try RawValueRepresentation<Self>.decode(from: &decoder)
    }

    /// The raw value, stored as its own type stores it.
    public static func encode(_ output: Self) -> DatabaseValue { RawValueRepresentation<Self>.encode(output) }

    /// The raw value's SQL type.
    public static var sqlType: SQLType { RawValue.sqlType }

    /// The raw value's form: a `Codable` enum with raw values reads its raw value.
    public static var jsonValueForm: JSONValueForm { RawValue.jsonValueForm }
}

extension RawRepresentable where RawValue: QueryBindable {
    /// The type stored as its raw value without conforming to `QueryBindable`:
    /// `@Column(as: Priority.RawRepresentation.self) var priority: Priority`.
    public typealias RawRepresentation = RawValueRepresentation<Self>
}

/// Stores a raw-value type (an enum with raw values, most often) as its raw value; a column names it
/// `Priority.RawRepresentation`:
///
/// ```swift
/// enum Priority: Int { case low = 1, medium, high }
///
/// @Table struct Chore {
///     let id: Int
///     @Column(as: Priority.RawRepresentation.self) var priority: Priority
/// }
/// ```
public enum RawValueRepresentation<Value: RawRepresentable>: QueryRepresentable where Value.RawValue: QueryBindable {
    /// Reads the raw value and the case it names; a raw value that names no case is an error.
    public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> Value {
        let start = decoder.columnIndex
        let raw = try Value.RawValue.decode(from: &decoder)
        guard let value = Value(rawValue: raw) else {
            decoder.columnIndex = start
            throw decoder.failure(expected: "\(Value.self)", found: "\(raw), which is not a case")
        }
        return value
    }

    /// The raw value, stored as its own type stores it.
    public static func encode(_ output: Value) -> DatabaseValue { Value.RawValue.encode(output.rawValue) }

    /// The raw value's SQL type.
    public static var sqlType: SQLType { Value.RawValue.sqlType }

    /// The raw value's form.
    public static var jsonValueForm: JSONValueForm { Value.RawValue.jsonValueForm }
}
