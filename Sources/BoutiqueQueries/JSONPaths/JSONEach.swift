import BoutiqueSQLite

// `json_each`, SQLite's table-valued function over a JSON array or object: one row per element, with
// its `key` (an array's index, an object's key) and its `value`. It is a table here, so a query over it
// is an ordinary `Select`: filtered, ordered, aggregated, used as `exists()` or a scalar subquery, or
// joined to the table whose column it reads.

/// A JSON array or object that `json_each` reads element by element.
public protocol JSONEachCollection: Codable, SendableMetatype {
    /// The `key` column: the index (`Int`) of an array element, the key (`String`) of an object's.
    associatedtype JSONEachKey: QueryRepresentable where JSONEachKey.QueryOutput == JSONEachKey
    /// The elements.
    associatedtype JSONEachElement: JSONPathValue
}

extension Array: JSONEachCollection where Element: JSONPathValue & Codable {
    public typealias JSONEachKey = Int
    public typealias JSONEachElement = Element
}

extension Set: JSONEachCollection where Element: JSONPathValue & Codable {
    public typealias JSONEachKey = Int
    public typealias JSONEachElement = Element
}

extension Dictionary: JSONEachCollection where Key == String, Value: JSONPathValue & Codable {
    public typealias JSONEachKey = String
    public typealias JSONEachElement = Value
}

/// A row of `json_each`: one element of a JSON collection with its key.
///
/// ```swift
/// Profile.where {
///     $0.author.jsonEach(\.links).where { $0.value.jsonExtract(\.homepage).like("%pointfree.co%") }.exists()
/// }
/// ```
///
/// It is read-only: SQLite refuses to write to `json_each` (`table json_each may not be modified`).
public struct JSONEach<Collection: JSONEachCollection>: Table {
    /// The element's index in an array, or its key in an object.
    public var key: Collection.JSONEachKey
    /// The element.
    public var value: Collection.JSONEachElement

    /// An element and its key.
    public init(key: Collection.JSONEachKey, value: Collection.JSONEachElement) {
        self.key = key
        self.value = value
    }

    /// The handles on `key` and `value`.
    public typealias TableColumns = JSONEachColumns<Collection>

    public static var tableName: String { "json_each" }

    public static var columns: JSONEachColumns<Collection> { JSONEachColumns() }

    public init(decoder: inout RowDecoder) throws(BoutiqueError) {
        key = try decoder.decode(Collection.JSONEachKey.self)
        value = try decoder.decode(Collection.JSONEachElement.JSONPathExtracted.self)
    }

    /// Nothing: `json_each` takes no rows.
    public func encodeColumns(into encoder: inout RowEncoder) {}
}

extension JSONEach: Sendable where Collection.JSONEachKey: Sendable, Collection.JSONEachElement: Sendable {}
extension JSONEach: Equatable where Collection.JSONEachKey: Equatable, Collection.JSONEachElement: Equatable {}

/// The columns of `json_each`: `$0.key` and `$0.value`, the value typed as the element, so a string
/// element compares as a string (`$0.value.eq("urgent")`) and a model element is read with paths
/// (`$0.value.jsonExtract(\.homepage)`).
public struct JSONEachColumns<Collection: JSONEachCollection>: TableDefinition {
    public typealias Root = JSONEach<Collection>

    /// `"json_each"."key"`.
    public var key: SQLExpression<Collection.JSONEachKey> { SQLExpression("\"json_each\".\"key\"") }

    /// `"json_each"."value"`.
    public var value: SQLExpression<Collection.JSONEachElement.JSONPathExtracted> {
        SQLExpression("\"json_each\".\"value\"")
    }

    public static var allColumns: [ColumnSchema] {
        [
            ColumnSchema("key", as: Collection.JSONEachKey.self),
            ColumnSchema("value", as: Collection.JSONEachElement.JSONPathExtracted.self),
        ]
    }
}

extension QueryExpression {
    /// `json_each(doc)`: the elements of a JSON array (or object) column, one row each.
    ///
    /// ```swift
    /// Reminder.where { $0.tags.jsonEach().where { $0.value.eq("urgent") }.exists() }
    /// ```
    public func jsonEach<Collection: JSONEachCollection>() -> Select<JSONEachColumns<Collection>, JSONEach<Collection>>
    where QueryValue == JSONRepresentation<Collection> {
        JSONEach<Collection>.reading("json_each(" + queryFragment + ")")
    }

    /// `json_each(doc)` of an optional column: no rows where the column is NULL.
    public func jsonEach<Collection: JSONEachCollection>() -> Select<JSONEachColumns<Collection>, JSONEach<Collection>>
    where QueryValue == JSONRepresentation<Collection>? {
        JSONEach<Collection>.reading("json_each(" + queryFragment + ")")
    }

    /// `json_each(doc, '$."links"')`: the elements of the array (or object) at `path`.
    public func jsonEach<Document, Collection: JSONEachCollection>(
        _ path: KeyPath<JSONPath<Document, JSONPathAlwaysReached>, JSONPath<Collection, some JSONPathReach>>
    ) -> Select<JSONEachColumns<Collection>, JSONEach<Collection>> where QueryValue == JSONRepresentation<Document> {
        JSONEach<Collection>.reading("json_each(" + queryFragment + ", " + JSONPathCall.literal(JSONPath.from(path)) + ")")
    }

    /// `json_each(doc, '$."links"')` of an optional array: no rows where there is none.
    public func jsonEach<Document, Collection: JSONEachCollection>(
        _ path: KeyPath<JSONPath<Document, JSONPathAlwaysReached>, JSONPath<Collection?, some JSONPathReach>>
    ) -> Select<JSONEachColumns<Collection>, JSONEach<Collection>> where QueryValue == JSONRepresentation<Document> {
        JSONEach<Collection>.reading("json_each(" + queryFragment + ", " + JSONPathCall.literal(JSONPath.from(path)) + ")")
    }

    /// `json_each(doc, '$."links"')` of an optional JSON column: no rows where the column is NULL.
    public func jsonEach<Document, Collection: JSONEachCollection>(
        _ path: KeyPath<JSONPath<Document, JSONPathAlwaysReached>, JSONPath<Collection, some JSONPathReach>>
    ) -> Select<JSONEachColumns<Collection>, JSONEach<Collection>> where QueryValue == JSONRepresentation<Document>? {
        JSONEach<Collection>.reading("json_each(" + queryFragment + ", " + JSONPathCall.literal(JSONPath.from(path)) + ")")
    }
}

extension JSONEach {
    /// Every row of the `json_each` call `source`.
    static func reading(_ source: QueryFragment) -> Select<JSONEachColumns<Collection>, Self> {
        Select(
            columns: columns, clauses: SelectClauses(from: source, defaultSelection: columns.queryFragment),
            rowSource: tableName, decoder: { (decoder) throws(BoutiqueError) in try Self(decoder: &decoder) })
    }
}
