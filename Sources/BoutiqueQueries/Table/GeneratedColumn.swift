/// How a generated column is stored, and the SQL that computes it when the model says.
///
/// ```swift
/// @Table struct Event {
///     let id: Int
///     var startAt: Date
///     var duration: Double
///     @Column(generated: .stored) let endAt: Date                   // computed as the app's SQL says
///     @Column(generated: .virtual("lower(title)")) let key: String  // computed as the model says
/// }
/// ```
///
/// A generated column is read but never written: inserts, updates and upserts leave it out. With
/// `.virtual` or `.stored` alone, as StructuredQueries spells it, the expression lives where the table
/// is created, in the app's migration SQL; the model then cannot create the table by itself, and
/// running its ``CreateTableStatement`` throws, naming the column. With an expression, the model's
/// `CREATE TABLE` declares it.
public struct GeneratedColumn: Hashable, Sendable {
    /// Whether SQLite computes the value when the row is read or keeps it when the row is written.
    public enum Storage: String, Hashable, Sendable {
        /// Computed when read; not stored (`VIRTUAL`).
        case virtual = "VIRTUAL"
        /// Computed when written and stored (`STORED`).
        case stored = "STORED"
    }

    /// `VIRTUAL` or `STORED`.
    public var storage: Storage
    /// The SQL expression, or `nil` when the table's own SQL declares it.
    public var expression: String?

    /// A column with `storage`, computed by `expression` (or as the table's SQL says, when `nil`).
    public init(storage: Storage, expression: String?) {
        self.storage = storage
        self.expression = expression
    }

    /// Computed when read, by the expression the table's SQL gives it.
    public static let virtual = GeneratedColumn(storage: .virtual, expression: nil)
    /// Computed when written and stored, by the expression the table's SQL gives it.
    public static let stored = GeneratedColumn(storage: .stored, expression: nil)

    /// Computed when read, by `expression`.
    public static func virtual(_ expression: String) -> GeneratedColumn {
        GeneratedColumn(storage: .virtual, expression: expression)
    }

    /// Computed when written and stored, by `expression`.
    public static func stored(_ expression: String) -> GeneratedColumn {
        GeneratedColumn(storage: .stored, expression: expression)
    }
}
