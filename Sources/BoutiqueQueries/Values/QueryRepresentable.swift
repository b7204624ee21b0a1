import BoutiqueSQLite

/// How a Swift value is stored in a column and read back.
///
/// A representation names the Swift type it stands for (``QueryOutput``) and converts it to and from
/// a ``/BoutiqueSQLite/DatabaseValue``. Most types are their own representation (`String`, `Int`, `UUID`, …, see
/// ``QueryBindable``); others choose one per column with `@Column(as:)`:
///
/// ```swift
/// @Table struct Event {
///     let id: Int
///     @Column(as: Date.ISO8601Representation.self) var startsAt: Date
/// }
/// ```
///
/// Conform your own types to store them in a form of your choosing.
public protocol QueryRepresentable<QueryOutput>: SendableMetatype {
    /// The Swift type the column holds.
    associatedtype QueryOutput

    /// The representation of the column where an outer join may leave it NULL: `Self?`, or the
    /// representation itself when it is optional already, so that such a column is optional once.
    associatedtype NullableRepresentation: QueryRepresentable = Self?

    /// Reads the value at the decoder's current column and advances to the next one.
    static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> QueryOutput

    /// The database value that stores `output`.
    static func encode(_ output: QueryOutput) -> DatabaseValue

    /// The SQL type a column of this representation is declared with (`INTEGER`, `REAL`, `TEXT`, `BLOB`).
    static var sqlType: SQLType { get }

    /// `true` for optional representations: the column may hold NULL.
    static var isNullable: Bool { get }

    /// Binds `output` to parameter `index` of `statement`. The default binds ``encode(_:)``'s value;
    /// the common types bind directly, without going through a ``/BoutiqueSQLite/DatabaseValue``.
    static func bind(_ output: QueryOutput, to statement: Statement, at index: Int32) throws(SQLiteError)

    /// How a stored value goes into a JSON object that `Codable` reads back as the Swift value
    /// (``TableDefinition/jsonObject()``). The default follows ``sqlType``: text and integers as they
    /// are, REAL numbers with all their digits.
    static var jsonValueForm: JSONValueForm { get }

    /// The columns a value spans when it is a group of columns (a `@Selection` struct stored as one
    /// field of a `@Table`), in order; `nil` for a value stored in one column.
    static var groupedColumns: [ColumnSchema]? { get }
}

extension QueryRepresentable {
    public static var isNullable: Bool { false }

    public static var jsonValueForm: JSONValueForm { JSONValueForm(defaultFor: sqlType) }

    @inlinable
    public static var groupedColumns: [ColumnSchema]? { nil }

    @inlinable
    public static func bind(_ output: QueryOutput, to statement: Statement, at index: Int32) throws(SQLiteError) {
        try statement.bind(encode(output), at: index)
    }
}

/// The SQL types a column is declared with; the names STRICT tables accept.
public enum SQLType: String, Sendable, Hashable {
    /// `INTEGER`: integers, `Bool`, integer unix times.
    case integer = "INTEGER"
    /// `REAL`: `Double`, `Float`, `Date` (seconds since 1970).
    case real = "REAL"
    /// `TEXT`: `String`, `UUID`, ISO-8601 dates, JSON.
    case text = "TEXT"
    /// `BLOB`: `Data`, `[UInt8]`, 16-byte UUIDs.
    case blob = "BLOB"
    /// `ANY`: any storage class (in a table that is not `STRICT`, declared without a type).
    case any = "ANY"
}
