/// How SQLite compares text: the name after `COLLATE`.
///
/// ```swift
/// Tag.where { $0.name.collate(.nocase) == "Home" }      // ("tag"."name" COLLATE NOCASE) = ?
/// Tag.order { $0.name.collate(.nocase) }
/// ```
public struct Collation: Sendable, Hashable {
    /// The collation's name, as `COLLATE` takes it.
    public let name: String

    /// A collation registered on the connection under `name` (quoted, so any name is safe).
    public init(_ name: String) { self.name = name }

    /// Byte by byte (SQLite's default).
    public static let binary = Collation(builtIn: "BINARY")
    /// ASCII letters compare without case: `"Home"` equals `"home"`.
    public static let nocase = Collation(builtIn: "NOCASE")
    /// Like `binary`, with trailing spaces ignored.
    public static let rtrim = Collation(builtIn: "RTRIM")

    private init(builtIn name: String) { self.name = name }

    /// The name as SQL: built-in names bare, others quoted.
    var sql: String {
        ["BINARY", "NOCASE", "RTRIM"].contains(name) ? name : SQLIdentifier.quote(name)
    }
}

extension QueryExpression where QueryValue: QueryText {
    /// The text compared and sorted with `collation`: `(x COLLATE NOCASE)`.
    public func collate(_ collation: Collation) -> SQLExpression<QueryValue> {
        SQLExpression("(" + queryFragment + " COLLATE " + QueryFragment(collation.sql) + ")")
    }
}
