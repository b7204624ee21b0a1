// Typed paths into a JSON document, written as Swift key paths: `\.links[0].homepage` is the path
// `$."links"[0]."homepage"`. A key path literal is checked by the compiler against the document's
// type, so a path names only fields that exist, and says the type of the value it reaches; the path
// text is read by applying the key path to an empty `JSONPath`, which collects one component per step.

/// A path from the root of a JSON document to a value of type `Value`, built from a key path:
/// `\.name`, `\.links[0].homepage`, `\.[0]`, `\.self`.
///
/// The document's fields are those of a `Codable` model marked `@Selection` or `@Table`: the macro
/// names each stored property (a ``JSONPathMember``), under the name `Codable` writes it with.
///
/// ```swift
/// @Selection struct Author: Codable { var name = ""; var links: [Link] = [] }
/// @Selection struct Link: Codable { var homepage = "" }
///
/// Profile.select { $0.author.jsonExtract(\.links[0].homepage) }
/// // SELECT json_extract("profile"."author", '$."links"[0]."homepage"') FROM "profile"
/// ```
///
/// `Reach` says whether the objects the path goes through are sure to be there: not when it goes
/// through an optional or a field of an array element (``JSONPathMaybeReached``). A step through an
/// optional (`\.editor.name` where `editor` is an `Author?`) reaches an optional value, and the edits
/// that would create what is missing (`jsonSet`, `jsonInsert`, `jsonAppend`, `jsonArrayInsert`) do not
/// take such a path: SQLite would write a partial object (`{"name": …}` alone) that the model cannot
/// decode.
@dynamicMemberLookup
public struct JSONPath<Value, Reach: JSONPathReach>: Hashable, Sendable {
    /// The steps after `$`, each already in SQLite's path syntax (`."name"`, `[0]`, `[#-1]`).
    var components: [String]

    /// The root of a document: `$`.
    public init() where Reach == JSONPathAlwaysReached { components = [] }

    init(components: [String]) { self.components = components }

    /// The path as SQLite reads it: `$."links"[0]."homepage"`.
    public var pathString: String { "$" + components.joined() }

    /// The path `keyPath` describes, from the root of a document of type `Root`.
    static func from<Root>(_ keyPath: KeyPath<JSONPath<Root, JSONPathAlwaysReached>, Self>) -> Self {
        JSONPath<Root, JSONPathAlwaysReached>()[keyPath: keyPath]
    }

    func appending<Next, NextReach>(_ component: String) -> JSONPath<Next, NextReach> {
        JSONPath<Next, NextReach>(components: components + [component])
    }

    /// A field of an object: `."name"`.
    public subscript<Member: JSONPathValue>(
        dynamicMember keyPath: KeyPath<Value.JSONPathMembers, JSONPathMember<Member>>
    ) -> JSONPath<Member, Reach.AfterField> where Value: JSONPathObject {
        appending(Self.member(Value.jsonPathMembers[keyPath: keyPath].name))
    }

    /// A field of an optional object: the value is optional too, and may not be there.
    public subscript<Member: JSONPathValue>(
        dynamicMember keyPath: KeyPath<Value.JSONPathWrapped.JSONPathMembers, JSONPathMember<Member>>
    ) -> JSONPath<Member.JSONPathOptional, JSONPathMaybeReached> where Value: JSONPathOptionalObject {
        appending(Self.member(Value.JSONPathWrapped.jsonPathMembers[keyPath: keyPath].name))
    }

    /// An element of an array: `[0]`, or counted from the end for a negative index (`-1` is the last
    /// element, `[#-1]`). A path past the end reaches nothing: `json_extract` gives NULL there.
    public subscript(_ index: Int) -> JSONPath<Value.JSONPathElement, Reach.AfterIndex> where Value: JSONPathArray {
        appending(Self.index(index))
    }

    /// An element of an optional array: optional, and may not be there.
    public subscript(
        _ index: Int
    ) -> JSONPath<Value.JSONPathWrapped.JSONPathElement.JSONPathOptional, JSONPathMaybeReached> where Value: JSONPathOptionalArray {
        appending(Self.index(index))
    }

    /// `."name"`, with `"` and `\` escaped as SQLite's path syntax reads them.
    static func member(_ name: String) -> String {
        var escaped = ""
        for character in name {
            if character == "\"" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return ".\"" + escaped + "\""
    }

    /// `[3]`, or `[#-1]` counted from the end.
    static func index(_ index: Int) -> String {
        index < 0 ? "[#\(index)]" : "[\(index)]"
    }
}

/// A field of a JSON object as a path names it: what `@Selection` and `@Table` generate for each stored
/// property of a `Codable` model, in its `JSONPathMembers`.
public struct JSONPathMember<Value>: Hashable, Sendable {
    /// The key the field is written under: the property's name, as synthesized `Codable` writes it.
    public let name: String

    /// The field written under `name`.
    @inlinable
    public init(_ name: String) { self.name = name }
}

/// A `Codable` model whose fields JSON paths can name (`\.name`). `@Selection` and `@Table` conform a
/// struct that is declared `Codable` in its own declaration; they generate ``JSONPathMembers`` with one
/// ``JSONPathMember`` per stored property.
///
/// The members carry the properties' Swift names, which synthesized `Codable` writes: a model with
/// custom `CodingKeys` writes other keys, and paths into it reach nothing (NULL).
public protocol JSONPathObject: JSONPathValue, Codable {
    /// One ``JSONPathMember`` property per stored property.
    associatedtype JSONPathMembers

    /// The members a path's key path is applied to.
    static var jsonPathMembers: JSONPathMembers { get }
}

/// An optional model, whose fields a path reaches as optionals.
public protocol JSONPathOptionalObject {
    /// The model.
    associatedtype JSONPathWrapped: JSONPathObject
}

extension Optional: JSONPathOptionalObject where Wrapped: JSONPathObject {
    public typealias JSONPathWrapped = Wrapped
}

/// An array, whose elements a path reaches by index.
public protocol JSONPathArray {
    /// The element.
    associatedtype JSONPathElement: JSONPathValue
}

extension Array: JSONPathArray where Element: JSONPathValue & Codable {
    public typealias JSONPathElement = Element
}

/// An optional array, whose elements a path reaches as optionals.
public protocol JSONPathOptionalArray {
    /// The array.
    associatedtype JSONPathWrapped: JSONPathArray
}

extension Optional: JSONPathOptionalArray where Wrapped: JSONPathArray {
    public typealias JSONPathWrapped = Wrapped
}

/// Whether the objects a ``JSONPath`` goes through are there whenever the document is: the edits that
/// create what is missing (`jsonSet`, `jsonInsert`, `jsonAppend`, `jsonArrayInsert`) take only a path
/// whose parent object is sure to exist (``JSONPathEditableReach``).
public protocol JSONPathReach: Sendable {
    /// The reach of a field of the value this reach ends at.
    associatedtype AfterField: JSONPathReach
    /// The reach of an element of the array this reach ends at.
    associatedtype AfterIndex: JSONPathReach
}

/// A reach whose parent object or array is there whenever the document is.
public protocol JSONPathEditableReach: JSONPathReach {}

/// A path whose every step is there when the document is: it goes through no optional and no array
/// element.
public enum JSONPathAlwaysReached: JSONPathEditableReach {
    public typealias AfterField = JSONPathAlwaysReached
    public typealias AfterIndex = JSONPathElementReached
}

/// A path that ends at an array element: the array is there, the element may not be (an index past
/// the end), so a field of it is only maybe reached (`json_set` would create the element as an object
/// with that one field).
public enum JSONPathElementReached: JSONPathEditableReach {
    public typealias AfterField = JSONPathMaybeReached
    public typealias AfterIndex = JSONPathElementReached
}

/// A path through an optional object or array, or through an array element, whose end may not be there.
public enum JSONPathMaybeReached: JSONPathReach {
    public typealias AfterField = JSONPathMaybeReached
    public typealias AfterIndex = JSONPathMaybeReached
}
