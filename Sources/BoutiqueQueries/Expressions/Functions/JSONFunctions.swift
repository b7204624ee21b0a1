// SQLite's JSON functions over BoutiqueDB's JSON columns (``JSONRepresentation``): an aggregate that
// collects a group's values into a JSON array, read back as a Swift array, and the length of a
// stored array.

/// A representation whose stored value SQLite writes into JSON as the very value `JSONDecoder` reads
/// back: text as a string, integers and doubles as numbers. Only these are collected by
/// `jsonGroupArray()`: a `Date` (stored as seconds since 1970) or a `Bool` (stored as 0 or 1) would
/// come back as a number that does not decode as the Swift value it was.
public protocol QueryJSONScalar: QueryRepresentable where QueryOutput: Codable {}

extension String: QueryJSONScalar {}
extension Int: QueryJSONScalar {}
extension Int64: QueryJSONScalar {}
extension Int32: QueryJSONScalar {}
extension Int16: QueryJSONScalar {}
extension Int8: QueryJSONScalar {}
extension UInt8: QueryJSONScalar {}
extension UInt16: QueryJSONScalar {}
extension UInt32: QueryJSONScalar {}
extension Double: QueryJSONScalar {}
extension Optional: QueryJSONScalar where Wrapped: QueryJSONScalar {}

// `[String].JSONRepresentation` names the JSON column of an array, as `JSONRepresentation<[String]>`
// does. The short name is on arrays and dictionaries only: on every `Codable` type it would be found
// first inside a `Codable` model's own declarations, where `JSONRepresentation<[String]>` would then
// stop compiling.
extension Array where Element: Codable {
    /// The JSON column of this array type: `@Column(as: [String].JSONRepresentation.self) var tags: [String]`.
    public typealias JSONRepresentation = BoutiqueQueries.JSONRepresentation<Self>
}

extension Dictionary where Key: Codable, Value: Codable {
    /// The JSON column of this dictionary type.
    public typealias JSONRepresentation = BoutiqueQueries.JSONRepresentation<Self>
}

extension QueryExpression where QueryValue: QueryJSONScalar {
    /// `json_group_array(x)`: the group's values as a JSON array, NULLs included, read as
    /// `[QueryValue]`; `distinct: true` keeps each value once.
    public func jsonGroupArray(
        distinct: Bool = false, filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<JSONRepresentation<[QueryValue.QueryOutput]>> {
        SQLExpression(AggregateCall.render("json_group_array", distinct: distinct, [queryFragment], filter: filter?.queryFragment))
    }

    /// `json_group_array(x ORDER BY order)`: the group's values in `order`.
    ///
    /// Needs SQLite 3.44 or later; older versions refuse the statement (`near "ORDER": syntax error`).
    public func jsonGroupArray(
        distinct: Bool = false, order: some QueryOrdering, filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<JSONRepresentation<[QueryValue.QueryOutput]>> {
        SQLExpression(AggregateCall.render(
            "json_group_array", distinct: distinct, [queryFragment], order: order.orderingFragment,
            filter: filter?.queryFragment))
    }
}

// A JSON column's values go in as JSON (`json(x)`), not as the text that holds them, so the array holds
// the values themselves.
extension QueryExpression {
    /// `json_group_array(json(x))` of a JSON column: the group's values as one array.
    public func jsonGroupArray<Value>(
        distinct: Bool = false, filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<JSONRepresentation<[Value]>> where QueryValue == JSONRepresentation<Value> {
        SQLExpression(AggregateCall.render(
            "json_group_array", distinct: distinct, ["json(" + queryFragment + ")"], filter: filter?.queryFragment))
    }

    /// `json_group_array(json(x) ORDER BY order)` of a JSON column.
    ///
    /// Needs SQLite 3.44 or later; older versions refuse the statement (`near "ORDER": syntax error`).
    public func jsonGroupArray<Value>(
        distinct: Bool = false, order: some QueryOrdering, filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<JSONRepresentation<[Value]>> where QueryValue == JSONRepresentation<Value> {
        SQLExpression(AggregateCall.render(
            "json_group_array", distinct: distinct, ["json(" + queryFragment + ")"], order: order.orderingFragment,
            filter: filter?.queryFragment))
    }

    /// `json_group_array(json(x))` of an optional JSON column: NULLs are collected as `nil`.
    public func jsonGroupArray<Value>(
        distinct: Bool = false, filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<JSONRepresentation<[Value?]>> where QueryValue == JSONRepresentation<Value>? {
        SQLExpression(AggregateCall.render(
            "json_group_array", distinct: distinct, ["json(" + queryFragment + ")"], filter: filter?.queryFragment))
    }

    /// `json_array_length(x)` of a JSON array column: the number of elements.
    public func jsonArrayLength<Element>() -> SQLExpression<Int> where QueryValue == JSONRepresentation<[Element]> {
        SQLExpression(Operators.function("json_array_length", [queryFragment]))
    }

    /// `json_array_length(x)` of an optional JSON array column: NULL for NULL.
    public func jsonArrayLength<Element>() -> SQLExpression<Int?> where QueryValue == JSONRepresentation<[Element]>? {
        SQLExpression(Operators.function("json_array_length", [queryFragment]))
    }
}
