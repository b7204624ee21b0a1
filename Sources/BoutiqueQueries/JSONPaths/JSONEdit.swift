import BoutiqueSQLite
import Foundation

// Changing a JSON document inside the database, without reading it into the app: `json_set`,
// `json_insert`, `json_replace`, `json_remove` and `json_array_insert` at typed paths. A new value is
// written in the form `Codable` reads back (its representation's `jsonValueForm`: a `Bool` as
// `true`/`false`, a `Date` as seconds since 2001, a model as JSON), so the document still decodes as
// its model after the edit.

/// A JSON document with changes at paths: the result of `jsonSet(_:_:)` and its siblings. It is an
/// expression of the document, so it can be assigned to the column
/// (`$0.author = $0.author.jsonSet(\.name, "Blob")`), selected, or edited further. Consecutive edits
/// of the same kind become one call: `json_set(doc, '$."name"', ?, '$."isVerified"', json(…))`.
public struct JSONEdit<Document: Codable>: QueryExpression {
    public typealias QueryValue = JSONRepresentation<Document>

    /// `json_set`, `json_insert`, …
    let function: String
    /// The document edited.
    let document: QueryFragment
    /// The paths edited, in order, as SQLite reads them.
    let paths: [String]
    /// Path and value pairs (or paths alone, for `json_remove`).
    let arguments: [QueryFragment]

    public var queryFragment: QueryFragment {
        function + "(" + ([document] + arguments).joined(separator: ", ") + ")"
    }

    /// Whether one more edit at `path` may join this call. SQLite applies a call's pairs in order,
    /// but (3.40 at least) it does not look inside a value the same call wrote: a path under an
    /// earlier one (`'$."links"'`, then `'$."links"[2]'`), or into an array an earlier pair appended
    /// to (`'$."links"[#]'`, then `'$."links"[0]'`), is silently skipped, so it starts a new call. The
    /// same path again (appends included) joins. Past 63 pairs SQLite's limit of 127 arguments would
    /// refuse the call.
    func accepts(_ path: String, in function: String) -> Bool {
        guard function == self.function, arguments.count < 63 else { return false }
        return !paths.contains { earlier in
            if path == earlier { return false }
            if path.hasPrefix(earlier), let next = path.dropFirst(earlier.count).first, next == "." || next == "[" {
                return true
            }
            return earlier.hasSuffix("[#]") && path.hasPrefix(earlier.dropLast(2))
        }
    }
}

extension QueryExpression {
    /// This document with an edit at `path` added to its `function` call when it is already one that
    /// can take it, or wrapped in a new call.
    func jsonEdit<Document>(_ function: String, at path: String, _ value: QueryFragment?) -> JSONEdit<Document> {
        let argument = JSONPathCall.literal(path) + (value.map { ", " + $0 } ?? QueryFragment())
        if let edit = self as? JSONEdit<Document>, edit.accepts(path, in: function) {
            return JSONEdit(
                function: function, document: edit.document, paths: edit.paths + [path], arguments: edit.arguments + [argument])
        }
        return JSONEdit(function: function, document: queryFragment, paths: [path], arguments: [argument])
    }

    /// An edit at `path` writing `value` in the form `Codable` reads.
    func jsonEdit<Document, Value: QueryRepresentable>(
        _ function: String, at path: String, _ value: some QueryExpression<Value>
    ) -> JSONEdit<Document> {
        jsonEdit(function, at: path, Value.jsonValueForm.render(value.queryFragment))
    }

    /// An edit at `path` writing `value` encoded as `JSONEncoder` writes it, bound: `json(?)`.
    func jsonEdit<Document>(_ function: String, at path: String, encoding value: some Encodable) -> JSONEdit<Document> {
        jsonEdit(function, at: path, "json(" + QueryFragment(binding: JSONEditEncoding.encoded(value)) + ")")
    }
}

enum JSONEditEncoding {
    /// `value` as JSON text; for a value JSON cannot hold (a non-finite `Double`), the empty text, which
    /// `json()` refuses ("malformed JSON"), so the statement fails and changes nothing (NULL would
    /// write `null` in the value's place).
    static func encoded(_ value: some Encodable) -> DatabaseValue {
        .text(JSONCoding.text(of: value) ?? "")
    }
}

extension QueryExpression {
    /// `json_set(doc, '$."name"', value)`: the document with the value at `path` set, created when
    /// the path's object has no such field.
    ///
    /// ```swift
    /// Profile.update { $0.author = $0.author.jsonSet(\.name, "Blob, Esq.").jsonSet(\.isVerified, true) }
    /// ```
    public func jsonSet<Document, Member: JSONPathValue>(
        _ path: KeyPath<JSONPath<Document, JSONPathAlwaysReached>, JSONPath<Member, some JSONPathEditableReach>>, _ value: some QueryExpression<Member.JSONPathWritten>
    ) -> JSONEdit<Document> where QueryValue == JSONRepresentation<Document> {
        jsonEdit("json_set", at: JSONPath.from(path).pathString, value)
    }

    /// `json_set(doc, '$."links"', json(?))` with a Swift value: a model, an array, `nil` or a
    /// value of an optional field, encoded as `JSONEncoder` writes it.
    @_disfavoredOverload
    public func jsonSet<Document, Member: JSONPathValue & Encodable>(
        _ path: KeyPath<JSONPath<Document, JSONPathAlwaysReached>, JSONPath<Member, some JSONPathEditableReach>>, _ value: Member
    ) -> JSONEdit<Document> where QueryValue == JSONRepresentation<Document> {
        jsonEdit("json_set", at: JSONPath.from(path).pathString, encoding: value)
    }

    /// `json_insert(doc, '$."nickname"', value)`: the document with the value at `path` only when
    /// nothing is there yet.
    public func jsonInsert<Document, Member: JSONPathValue>(
        _ path: KeyPath<JSONPath<Document, JSONPathAlwaysReached>, JSONPath<Member, some JSONPathEditableReach>>, _ value: some QueryExpression<Member.JSONPathWritten>
    ) -> JSONEdit<Document> where QueryValue == JSONRepresentation<Document> {
        jsonEdit("json_insert", at: JSONPath.from(path).pathString, value)
    }

    /// `json_insert(doc, '$."nickname"', json(?))` with a Swift value, encoded as `JSONEncoder` writes it.
    @_disfavoredOverload
    public func jsonInsert<Document, Member: JSONPathValue & Encodable>(
        _ path: KeyPath<JSONPath<Document, JSONPathAlwaysReached>, JSONPath<Member, some JSONPathEditableReach>>, _ value: Member
    ) -> JSONEdit<Document> where QueryValue == JSONRepresentation<Document> {
        jsonEdit("json_insert", at: JSONPath.from(path).pathString, encoding: value)
    }

    /// `json_replace(doc, '$."name"', value)`: the document with the value at `path` replaced, only
    /// when one is there.
    public func jsonReplace<Document, Member: JSONPathValue>(
        _ path: KeyPath<JSONPath<Document, JSONPathAlwaysReached>, JSONPath<Member, some JSONPathReach>>, _ value: some QueryExpression<Member.JSONPathWritten>
    ) -> JSONEdit<Document> where QueryValue == JSONRepresentation<Document> {
        jsonEdit("json_replace", at: JSONPath.from(path).pathString, value)
    }

    /// `json_replace(doc, '$."links"', json(?))` with a Swift value, encoded as `JSONEncoder` writes it.
    @_disfavoredOverload
    public func jsonReplace<Document, Member: JSONPathValue & Encodable>(
        _ path: KeyPath<JSONPath<Document, JSONPathAlwaysReached>, JSONPath<Member, some JSONPathReach>>, _ value: Member
    ) -> JSONEdit<Document> where QueryValue == JSONRepresentation<Document> {
        jsonEdit("json_replace", at: JSONPath.from(path).pathString, encoding: value)
    }

    /// `json_remove(doc, '$."nickname"')`: the document without the value at `path` (a field, or an
    /// array element, the elements after it moving up).
    ///
    /// Removing a field that is not optional leaves a document its model cannot decode.
    public func jsonRemove<Document, Member>(
        _ path: KeyPath<JSONPath<Document, JSONPathAlwaysReached>, JSONPath<Member, some JSONPathReach>>
    ) -> JSONEdit<Document> where QueryValue == JSONRepresentation<Document> {
        jsonEdit("json_remove", at: JSONPath.from(path).pathString, nil)
    }

    /// `json_insert(doc, '$."tags"[#]', value)`: the document with `value` appended to the array at
    /// `path`.
    public func jsonAppend<Document, Element: JSONPathValue>(
        _ path: KeyPath<JSONPath<Document, JSONPathAlwaysReached>, JSONPath<[Element], some JSONPathEditableReach>>, _ value: some QueryExpression<Element.JSONPathWritten>
    ) -> JSONEdit<Document> where QueryValue == JSONRepresentation<Document> {
        jsonEdit("json_insert", at: JSONPath.from(path).pathString + "[#]", value)
    }

    /// `json_insert(doc, '$."links"[#]', json(?))`: a Swift value (a model, an array) appended,
    /// encoded as `JSONEncoder` writes it.
    @_disfavoredOverload
    public func jsonAppend<Document, Element: JSONPathValue & Encodable>(
        _ path: KeyPath<JSONPath<Document, JSONPathAlwaysReached>, JSONPath<[Element], some JSONPathEditableReach>>, _ value: Element
    ) -> JSONEdit<Document> where QueryValue == JSONRepresentation<Document> {
        jsonEdit("json_insert", at: JSONPath.from(path).pathString + "[#]", encoding: value)
    }

    /// `json_insert(doc, '$[#]', value)`: a JSON array column with `value` appended.
    ///
    /// ```swift
    /// Reminder.update { $0.tags = $0.tags.jsonAppend("urgent") }
    /// ```
    public func jsonAppend<Element: JSONPathValue>(
        _ value: some QueryExpression<Element.JSONPathWritten>
    ) -> JSONEdit<[Element]> where QueryValue == JSONRepresentation<[Element]> {
        jsonAppend(\.self, value)
    }

    /// `json_insert(doc, '$[#]', json(?))`: a Swift value appended to a JSON array column.
    @_disfavoredOverload
    public func jsonAppend<Element: JSONPathValue & Encodable>(
        _ value: Element
    ) -> JSONEdit<[Element]> where QueryValue == JSONRepresentation<[Element]> {
        jsonAppend(\.self, value)
    }

    /// `json_array_insert(doc, '$."tags"[0]', value)`: the document with `value` inserted before the
    /// array element at `path` (`[#]`, one past the end, appends).
    ///
    /// `json_array_insert` came with SQLite 3.53: an older SQLite refuses the statement
    /// (`no such function: json_array_insert`), where `jsonAppend(_:_:)` and `jsonSet(_:_:)` work.
    public func jsonArrayInsert<Document, Element: JSONPathValue>(
        _ path: KeyPath<JSONPath<Document, JSONPathAlwaysReached>, JSONPath<Element, some JSONPathEditableReach>>, _ value: some QueryExpression<Element.JSONPathWritten>
    ) -> JSONEdit<Document> where QueryValue == JSONRepresentation<Document> {
        jsonEdit("json_array_insert", at: JSONPath.from(path).pathString, value)
    }

    /// `json_array_insert(doc, '$."links"[0]', json(?))` with a Swift value, encoded as `JSONEncoder`
    /// writes it. Needs SQLite 3.53.
    @_disfavoredOverload
    public func jsonArrayInsert<Document, Element: JSONPathValue & Encodable>(
        _ path: KeyPath<JSONPath<Document, JSONPathAlwaysReached>, JSONPath<Element, some JSONPathEditableReach>>, _ value: Element
    ) -> JSONEdit<Document> where QueryValue == JSONRepresentation<Document> {
        jsonEdit("json_array_insert", at: JSONPath.from(path).pathString, encoding: value)
    }
}
