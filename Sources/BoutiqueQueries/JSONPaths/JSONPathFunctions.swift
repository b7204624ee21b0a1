// Reading inside a JSON column through a typed path: `json_extract` and `json_array_length` with a
// path. The path goes into the SQL as a string literal (`'$."name"'`), not a binding: it is built from
// property names the compiler checked, and SQLite can only match an index on
// `json_extract("profile"."author", '$."name"')` when the statement names the same literal path.

extension QueryExpression {
    /// `json_extract(doc, '$."name"')`: the value at `path`, read as its Swift type.
    ///
    /// ```swift
    /// Profile.select { $0.author.jsonExtract(\.links[0].homepage) }          // [String]
    /// Profile.where { $0.author.jsonExtract(\.name).eq("Blob") }
    /// ```
    ///
    /// A nested model or array is read from its JSON, a date from the seconds since 2001 `Codable`
    /// wrote. A path the document does not hold gives NULL: extract it through an optional field, or
    /// expect a decoding error for a non-optional one.
    public func jsonExtract<Document, Member: JSONPathValue>(
        _ path: KeyPath<JSONPath<Document, JSONPathAlwaysReached>, JSONPath<Member, some JSONPathReach>>
    ) -> SQLExpression<Member.JSONPathExtracted> where QueryValue == JSONRepresentation<Document> {
        SQLExpression(JSONPathCall.extract(queryFragment, JSONPath.from(path)))
    }

    /// `json_extract(doc, '$."name"')` of an optional JSON column: NULL where the column is NULL.
    public func jsonExtract<Document, Member: JSONPathValue>(
        _ path: KeyPath<JSONPath<Document, JSONPathAlwaysReached>, JSONPath<Member, some JSONPathReach>>
    ) -> SQLExpression<Member.JSONPathOptional.JSONPathExtracted> where QueryValue == JSONRepresentation<Document>? {
        SQLExpression(JSONPathCall.extract(queryFragment, JSONPath.from(path)))
    }

    /// `json_array_length(doc, '$."links"')`: the number of elements of the array at `path`.
    public func jsonArrayLength<Document, Element>(
        _ path: KeyPath<JSONPath<Document, JSONPathAlwaysReached>, JSONPath<[Element], some JSONPathReach>>
    ) -> SQLExpression<Int> where QueryValue == JSONRepresentation<Document> {
        SQLExpression(JSONPathCall.arrayLength(queryFragment, JSONPath.from(path)))
    }

    /// `json_array_length(doc, '$."links"')` of an optional array, or through an optional field: NULL
    /// where there is no array.
    public func jsonArrayLength<Document, Element>(
        _ path: KeyPath<JSONPath<Document, JSONPathAlwaysReached>, JSONPath<[Element]?, some JSONPathReach>>
    ) -> SQLExpression<Int?> where QueryValue == JSONRepresentation<Document> {
        SQLExpression(JSONPathCall.arrayLength(queryFragment, JSONPath.from(path)))
    }

    /// `json_array_length(doc, '$."links"')` of an optional JSON column: NULL where the column is NULL.
    public func jsonArrayLength<Document, Element>(
        _ path: KeyPath<JSONPath<Document, JSONPathAlwaysReached>, JSONPath<[Element], some JSONPathReach>>
    ) -> SQLExpression<Int?> where QueryValue == JSONRepresentation<Document>? {
        SQLExpression(JSONPathCall.arrayLength(queryFragment, JSONPath.from(path)))
    }
}

/// The SQL of the path functions.
enum JSONPathCall {
    /// `'$."links"[0]'`: a path as an SQL string literal.
    static func literal<Value, Reach>(_ path: JSONPath<Value, Reach>) -> String {
        literal(path.pathString)
    }

    /// `'$."links"[#]'`: path text as an SQL string literal.
    static func literal(_ pathString: String) -> String {
        SQLLiteral.render(.text(pathString))
    }

    static func extract<Value, Reach>(_ document: QueryFragment, _ path: JSONPath<Value, Reach>) -> QueryFragment {
        "json_extract(" + document + ", " + literal(path) + ")"
    }

    static func arrayLength<Value, Reach>(_ document: QueryFragment, _ path: JSONPath<Value, Reach>) -> QueryFragment {
        "json_array_length(" + document + ", " + literal(path) + ")"
    }
}
