/// A complete SQL statement: its text and bindings, and how to read each row it returns.
///
/// Statements are values; nothing touches a database until one is run with `fetchAll(_:)`,
/// `fetchOne(_:)` or `execute(_:)` on a connection, so queries can be built and inspected (``sql``)
/// anywhere.
public protocol QueryStatement<Row>: SendableMetatype {
    /// The Swift type of each returned row (`Void` for statements that return none).
    associatedtype Row

    /// The statement's SQL and bindings.
    var query: QueryFragment { get }

    /// Reads one returned row.
    func decodeRow(_ decoder: inout RowDecoder) throws(BoutiqueError) -> Row

    /// The table or query named in decoding errors.
    var rowSource: String { get }
}

extension QueryStatement {
    /// The SQL text, with `?` for each bound value.
    public var sql: String { query.sql }

    /// The values bound to the placeholders, in order.
    public var bindings: [BoutiqueSQLite.DatabaseValue] { query.bindings }
}

import BoutiqueSQLite
