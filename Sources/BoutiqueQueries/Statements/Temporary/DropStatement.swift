/// A `DROP TRIGGER` or `DROP VIEW` statement: what ``TemporaryTrigger/drop(ifExists:)`` and
/// ``TemporaryView/drop(ifExists:)`` return.
///
/// ```swift
/// try trigger.drop(ifExists: true).execute(connection)   // DROP TRIGGER IF EXISTS "…"
/// ```
public struct DropStatement: QueryStatement, Sendable {
    public typealias Row = Void

    public let query: QueryFragment

    /// `DROP <kind> [IF EXISTS] "name"`.
    init(kind: String, name: String, ifExists: Bool) {
        query = QueryFragment("DROP " + kind + (ifExists ? " IF EXISTS " : " ") + SQLIdentifier.quote(name))
    }

    public var rowSource: String { "" }

    public func decodeRow(_ decoder: inout RowDecoder) throws(BoutiqueError) {}
}
