import BoutiqueSQLite
import Foundation

// A table's row as one JSON object (`json_object('id', …, 'title', …)`), read back through the model's
// `Codable` conformance: what lets a query load a list with its reminders as `[Reminder]` in one row.
// Each column goes in in the form `JSONDecoder` reads as the Swift value, which is not always the form
// it is stored in: a `Bool` is stored as 0 or 1, a `Date` as seconds since 1970.

/// How a column's stored value is written into a JSON object so that `Codable` reads it back as the
/// Swift value it stores (see ``QueryRepresentable/jsonValueForm``).
public enum JSONValueForm: Hashable, Sendable {
    /// As stored: text becomes a JSON string, an integer a number, NULL `null`.
    case stored
    /// A REAL with all 17 significant digits, so that it reads back as the same `Double` (SQLite's
    /// own JSON writes 15).
    case fullPrecisionNumber
    /// `true` or `false` for a stored 1 or 0.
    case boolean
    /// A date stored as seconds since 1970 (REAL or INTEGER), written as seconds since 2001, the
    /// number `JSONEncoder` writes for a `Date`.
    case dateSeconds
    /// JSON text, written as the JSON it holds.
    case json

    /// The SQL for `column`'s value in this form.
    func render(_ column: String) -> String {
        switch self {
        case .stored:
            return column
        case .fullPrecisionNumber:
            return "json(CASE WHEN \(column) IS NULL THEN NULL ELSE printf('%!.17g', \(column)) END)"
        case .boolean:
            return "json(CASE WHEN \(column) IS NULL THEN NULL WHEN \(column) THEN 'true' ELSE 'false' END)"
        case .dateSeconds:
            // 978307200 seconds separate 1970 from 2001; the subtraction is the one `Date` does.
            return "json(CASE WHEN \(column) IS NULL THEN NULL ELSE printf('%!.17g', \(column) - 978307200.0) END)"
        case .json:
            return "json(\(column))"
        }
    }
}

/// The JSON decoder of BoutiqueDB's JSON columns: dates as `JSONEncoder` writes them (seconds since
/// 2001) and, for rows written by `json_object`, as ISO-8601 text (a `Date.ISO8601Representation`
/// column's value).
enum JSONCoding {
    static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            if let seconds = try? container.decode(Double.self) { return Date(timeIntervalSinceReferenceDate: seconds) }
            let text = try container.decode(String.self)
            guard let date = ISO8601Parsing.date(from: text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO-8601 date: \(text)")
            }
            return date
        }
        return decoder
    }
}

extension TableDefinition where Root: Codable {
    /// `json_object('id', …, 'title', …)`: the row as one JSON object, read as the model through its
    /// `Codable` conformance.
    ///
    /// ```swift
    /// Reminder.select { $0.jsonObject() }    // a [Reminder] read from JSON
    /// ```
    ///
    /// The object's keys are the columns' names, which `Codable` reads when they are the properties'
    /// names (no `@Column("name")` renaming and no custom `CodingKeys`). A blob column cannot go into
    /// JSON: SQLite fails the statement ("JSON cannot hold BLOB values").
    public func jsonObject() -> SQLExpression<JSONRepresentation<Root>> {
        SQLExpression(QueryFragment(JSONObjectRendering.object(Self.self)))
    }

    /// `json_group_array(json_object(…))`: the group's rows as an array of the model.
    public func jsonGroupArray(
        distinct: Bool = false, filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<JSONRepresentation<[Root]>> {
        SQLExpression(AggregateCall.render(
            "json_group_array", distinct: distinct, [jsonObject().queryFragment], filter: filter?.queryFragment))
    }

    /// `json_group_array(json_object(…) ORDER BY order)`: the group's rows in `order`.
    ///
    /// Needs SQLite 3.44 or later; older versions refuse the statement (`near "ORDER": syntax error`).
    public func jsonGroupArray(
        distinct: Bool = false, order: some QueryOrdering, filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<JSONRepresentation<[Root]>> {
        SQLExpression(AggregateCall.render(
            "json_group_array", distinct: distinct, [jsonObject().queryFragment], order: order.orderingFragment,
            filter: filter?.queryFragment))
    }
}

// A table with a primary key leaves out the rows whose key is NULL: the missing rows of a left join,
// which would otherwise be objects of nulls that do not decode. (A stored row's key is never NULL.)
extension PrimaryKeyedTableDefinition where Root: Codable {
    /// `json_group_array(json_object(…)) FILTER (WHERE key IS NOT NULL)`: the group's rows as an array
    /// of the model, empty for a left join's missing row.
    ///
    /// ```swift
    /// RemindersList.leftJoin(Reminder.all) { $0.id == $1.listID }
    ///     .group { $0.0.id }
    ///     .select { ($0, $1.jsonGroupArray()) }     // (RemindersList, [Reminder])
    /// ```
    public func jsonGroupArray(
        distinct: Bool = false, filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<JSONRepresentation<[Root]>> {
        SQLExpression(AggregateCall.render(
            "json_group_array", distinct: distinct, [jsonObject().queryFragment],
            filter: JSONObjectRendering.presentRows(primaryKey, filter?.queryFragment)))
    }

    /// `json_group_array(json_object(…) ORDER BY order) FILTER (WHERE key IS NOT NULL)`.
    ///
    /// Needs SQLite 3.44 or later; older versions refuse the statement (`near "ORDER": syntax error`).
    public func jsonGroupArray(
        distinct: Bool = false, order: some QueryOrdering, filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<JSONRepresentation<[Root]>> {
        SQLExpression(AggregateCall.render(
            "json_group_array", distinct: distinct, [jsonObject().queryFragment], order: order.orderingFragment,
            filter: JSONObjectRendering.presentRows(primaryKey, filter?.queryFragment)))
    }
}

enum JSONObjectRendering {
    /// `json_object('name', value, …)` over a table's columns, qualified by its name (built once per table).
    static func object<Columns: TableDefinition>(_ columns: Columns.Type) -> String {
        SQLTextCache.shared.text(for: .jsonObject(ObjectIdentifier(Columns.self))) {
            let table = Columns.Root.quotedTableName
            let pairs = Columns.allColumns.map { column in
                SQLLiteral.render(.text(column.name)) + ", " + column.jsonValueForm.render(table + "." + SQLIdentifier.quote(column.name))
            }
            return "json_object(" + pairs.joined(separator: ", ") + ")"
        }
    }

    /// `key IS NOT NULL`, and `filter` when there is one.
    static func presentRows<Key>(_ key: TableColumn<some Table, Key>, _ filter: QueryFragment?) -> QueryFragment {
        let present = "(" + key.queryFragment + " IS NOT NULL)"
        guard let filter else { return present }
        return "(" + present + " AND " + filter + ")"
    }
}
