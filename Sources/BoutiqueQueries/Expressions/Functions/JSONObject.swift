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
    /// number `JSONEncoder` writes for a `Date`. A date stored as ISO-8601 text (which `Date` columns
    /// read too) is written as that text.
    case dateSeconds
    /// JSON text, written as the JSON it holds.
    case json
    /// A `UInt64` stored with its bit pattern in a signed INTEGER, written as the unsigned number.
    case unsignedInteger
    /// A UUID stored as text or as 16 bytes, written as its upper-case text (`XXXXXXXX-XXXX-…`), as
    /// `JSONEncoder` writes it.
    case uuidBytes

    /// The form a value of `sqlType` takes unless its representation says otherwise: REAL numbers
    /// with all their digits, everything else as stored.
    init(defaultFor sqlType: SQLType) {
        self = sqlType == .real ? .fullPrecisionNumber : .stored
    }

    /// The SQL for `column`'s value in this form.
    func render(_ column: String) -> String { render(QueryFragment(column)).sql }

    /// The SQL for `value`'s value in this form: a column, or any expression with its bindings (which
    /// are repeated where the form reads the value more than once).
    func render(_ value: QueryFragment) -> QueryFragment {
        switch self {
        case .stored:
            return value
        case .fullPrecisionNumber:
            return "json(CASE WHEN " + value + " IS NULL THEN NULL ELSE printf('%!.17g', " + value + ") END)"
        case .boolean:
            return "json(CASE WHEN " + value + " IS NULL THEN NULL WHEN " + value + " THEN 'true' ELSE 'false' END)"
        case .dateSeconds:
            // 978307200 seconds separate 1970 from 2001; the subtraction is the one `Date` does.
            return "CASE WHEN typeof(" + value + ") = 'text' THEN " + value
                + " ELSE json(CASE WHEN " + value + " IS NULL THEN NULL ELSE printf('%!.17g', " + value
                + " - 978307200.0) END) END"
        case .json:
            return "json(" + value + ")"
        case .unsignedInteger:
            return "json(CASE WHEN " + value + " IS NULL THEN NULL ELSE printf('%llu', " + value + ") END)"
        case .uuidBytes:
            let hex = "hex(" + value + ")"
            // Upper case, as `JSONEncoder` writes a UUID (`uuidString`), so that a path compares it.
            return "CASE WHEN typeof(" + value + ") = 'blob' THEN substr(" + hex + ", 1, 8) || '-' || substr("
                + hex + ", 9, 4) || '-' || substr(" + hex + ", 13, 4) || '-' || substr(" + hex + ", 17, 4) || '-' || substr("
                + hex + ", 21, 12) ELSE upper(" + value + ") END"
        }
    }
}

/// The JSON decoder of BoutiqueDB's JSON columns: dates as `JSONEncoder` writes them (seconds since
/// 2001) and, for rows written by `json_object`, as ISO-8601 text (a `Date.ISO8601Representation`
/// column's value). One decoder serves every read: it is `Sendable`, and its options never change.
enum JSONCoding {
    /// `value` as the JSON text a JSON column stores: keys sorted, so that equal values are equal text;
    /// `nil` for a value JSON cannot hold (a non-finite `Double`).
    static func text(of value: some Encodable) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    static let decoder: JSONDecoder = {
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
    }()
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
    /// names (no `@Column("name")` renaming and no custom `CodingKeys`); an `@Ephemeral` property
    /// that is not optional has no key, and its synthesized decoding fails. A blob column cannot go
    /// into JSON: SQLite fails the statement ("JSON cannot hold BLOB values"), as it does for an
    /// infinite `Double` ("malformed JSON"). A representation of your own writes its value as its
    /// ``QueryRepresentable/jsonValueForm`` says, by default as its SQL type suggests: give it the
    /// form `Codable` reads (a date stored in milliseconds needs more than a form: select it apart).
    ///
    /// A REAL goes in with 17 digits through SQLite's `printf`, which gives every digit exactly from
    /// SQLite 3.43 on, and before that where `long double` is wider than `double` (x86): on an older
    /// SQLite on ARM the last digit of a `Double` may differ.
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
    ///     .group { list, _ in list.id }
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
