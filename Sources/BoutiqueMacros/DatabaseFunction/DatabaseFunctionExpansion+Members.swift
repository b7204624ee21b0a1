// The members of the function type: the call in queries and the call from SQLite, for a scalar
// function, an aggregate and a computed property.

extension DatabaseFunctionExpansion {
    /// `let p0 = try arguments.decode(String.self)`, one per argument.
    func writeDecodings(_ writer: inout SourceWriter) {
        for (index, parameter) in signature.parameters.enumerated() {
            writer.line("let p\(index) = try arguments.decode(\(parameter.representation).self)")
        }
    }

    /// `return try Output.encode(call)`, or the call and NULL for a function returning nothing.
    func writeResult(of call: String, _ writer: inout SourceWriter) {
        if let output = signature.outputRepresentation {
            writer.line("return try \(output).encode(\(call))")
        } else {
            writer.line("try \(call)")
            writer.line("return .null")
        }
    }

    func writeScalar(_ writer: inout SourceWriter) {
        let parameters = signature.parameters.map(\.expressionParameter).joined(separator: ", ")
        writer.line("public func callAsFunction(\(parameters)) -> BoutiqueQueries.SQLExpression<\(outputRepresentation)> {")
        writer.indented { $0.line("BoutiqueQueries.SQLExpression(callFragment(\(fragments)))") }
        writer.line("}")
        writer.line("public func invoke(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> BoutiqueQueries.DatabaseValue {")
        writer.indented { writer in
            writeDecodings(&writer)
            let values = signature.parameters.indices.map { "p\($0)" }.joined(separator: ", ")
            writeResult(of: "body(\(values))", &writer)
        }
        writer.line("}")
    }

    func writeAggregate(_ writer: inout SourceWriter) {
        var parameters = signature.parameters.map(\.expressionParameter)
        // SQLite allows DISTINCT in a call of one argument only.
        if signature.parameters.count == 1 { parameters.append("distinct: Bool = false") }
        parameters.append("order: (some BoutiqueQueries.QueryOrdering)? = BoutiqueQueries.OrderingTerm?.none")
        parameters.append("filter: (some BoutiqueQueries.QueryExpression<Bool>)? = Bool?.none")
        writer.line(
            "public func callAsFunction(\(parameters.joined(separator: ", "))) -> BoutiqueQueries.SQLExpression<\(outputRepresentation)> {")
        writer.indented { writer in
            let distinct = signature.parameters.count == 1 ? "distinct" : "false"
            writer.line(
                "BoutiqueQueries.SQLExpression(callFragment(\(fragments), distinct: \(distinct), order: order?.orderingFragment, filter: filter?.queryFragment))")
        }
        writer.line("}")
        writer.line("public func step(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> Element {")
        writer.indented { writer in
            writeDecodings(&writer)
            if signature.parameters.count == 1 {
                writer.line("return p0")
            } else {
                let values = signature.parameters.enumerated().map { index, parameter in
                    (parameter.label.map { "\($0): " } ?? "") + "p\(index)"
                }
                writer.line("return (\(values.joined(separator: ", ")))")
            }
        }
        writer.line("}")
        writer.line("public func invoke(_ elements: [Element]) throws -> BoutiqueQueries.DatabaseValue {")
        writer.indented { writeResult(of: "body(elements)", &$0) }
        writer.line("}")
    }

    func writeProperty(_ writer: inout SourceWriter) {
        writer.line("public var queryFragment: BoutiqueQueries.QueryFragment {")
        writer.indented { $0.line("callFragment([])") }
        writer.line("}")
        writer.line("public func invoke(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> BoutiqueQueries.DatabaseValue {")
        writer.indented { writeResult(of: "body()", &$0) }
        writer.line("}")
    }
}
