import Foundation

/// A value a ``JSONPath`` can reach inside a JSON document, with how SQL reads and writes it there.
///
/// `Codable` writes a `String` as a JSON string, an `Int` as a number, a `Bool` as `true`/`false`, a
/// `Date` as seconds since 2001 and a nested model or array as JSON. `json_extract` gives these to
/// SQL as text, integers, reals, 1/0 and JSON text; each conformance names the representation that
/// reads that value back (``JSONPathExtracted``) and the one a new value is given in (``JSONPathWritten``).
///
/// The standard scalars, `Date`, `UUID`, optionals, arrays, sets and dictionaries with `String` keys
/// conform; models conform through `@Selection` or `@Table` (``JSONPathObject``). An enum stored by
/// its raw value conforms with one line, `extension Priority: JSONPathValue {}`, when it is already a
/// `QueryBindable` column type.
public protocol JSONPathValue {
    /// The representation a value for this path is given in (`jsonSet(\.name, "Blob")`): written into
    /// the document in its ``QueryRepresentable/jsonValueForm``.
    associatedtype JSONPathWritten: QueryRepresentable = Self where JSONPathWritten.QueryOutput == Self

    /// The representation `json_extract`'s result is read with.
    associatedtype JSONPathExtracted: QueryRepresentable = JSONPathWritten where JSONPathExtracted.QueryOutput == Self

    /// This type reached through an optional: `Self?`, or `Self` when it is already optional.
    associatedtype JSONPathOptional: JSONPathValue = Self?
}

extension String: JSONPathValue {}
extension Bool: JSONPathValue {}
extension Int: JSONPathValue {}
extension Int64: JSONPathValue {}
extension Int32: JSONPathValue {}
extension Int16: JSONPathValue {}
extension Int8: JSONPathValue {}
extension UInt8: JSONPathValue {}
extension UInt16: JSONPathValue {}
extension UInt32: JSONPathValue {}
extension Double: JSONPathValue {}
extension Float: JSONPathValue {}

extension UUID: JSONPathValue {
    /// `JSONEncoder` writes a UUID in upper case, so a UUID compared with one is bound in upper case.
    public typealias JSONPathExtracted = UUID.UppercaseRepresentation
}

extension Date: JSONPathValue {
    /// `JSONEncoder` writes a date as seconds since 2001, which a `Date` column (seconds since 1970)
    /// would misread by 31 years.
    public typealias JSONPathExtracted = Date.ReferenceDateRepresentation
}

extension Optional: JSONPathValue where Wrapped: JSONPathValue {
    public typealias JSONPathWritten = Wrapped.JSONPathWritten?
    public typealias JSONPathExtracted = Wrapped.JSONPathExtracted?
    public typealias JSONPathOptional = Self
}

extension Array: JSONPathValue where Element: Codable {
    public typealias JSONPathWritten = BoutiqueQueries.JSONRepresentation<Self>
}

extension Set: JSONPathValue where Element: Codable {
    public typealias JSONPathWritten = BoutiqueQueries.JSONRepresentation<Self>
}

extension Dictionary: JSONPathValue where Key == String, Value: Codable {
    public typealias JSONPathWritten = BoutiqueQueries.JSONRepresentation<Self>
}
