/// The text `@DatabaseFunction` expands to: `$name`, and the function type it returns.
///
/// ```swift
/// @DatabaseFunction func exclaim(_ text: String) -> String { text + "!" }
/// // nonisolated var $exclaim: T { T(exclaim(_:)) }
/// // nonisolated struct T: BoutiqueQueries.ScalarDatabaseFunction {
/// //     public let name = "exclaim"
/// //     …
/// //     public func callAsFunction(_ text: some BoutiqueQueries.QueryExpression<String>) -> BoutiqueQueries.SQLExpression<String>
/// //     public func invoke(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> BoutiqueQueries.DatabaseValue
/// // }
/// ```
///
/// The function is kept as a `@Sendable` closure: SQLite calls it on whichever connection runs the
/// statement, the writer's or a reader's, so it must be safe to call from any of them.
struct DatabaseFunctionExpansion {
    /// How `$name` reaches the function.
    enum Owner {
        /// A global or static function, or a local one: called by name.
        case none
        /// A method of a value type (or of an extension): called on `self`, which it keeps.
        case instance
        /// A method of a class: called on a weak `self`, so that a function added to a database does
        /// not keep its object alive.
        case weakInstance
    }

    let signature: DatabaseFunctionSignature
    let sqlName: String
    let isDeterministic: Bool
    /// The unique name of the generated function type.
    let typeName: String
    /// `"public "`, `"private "`, … or `""`: the declaration's own access.
    let access: String
    /// The declaration's `@available` attributes, each followed by a space.
    let availability: String
    let owner: Owner

    private var isolation: String {
        #if compiler(>=6.1)
        "nonisolated "
        #else
        ""
        #endif
    }

    /// `var $name: T { T(…) }`, `static` for a static function.
    var projection: String {
        var writer = SourceWriter()
        let modifiers = access + (signature.isStatic ? "static " : "") + isolation
        writer.line("\(availability)\(modifiers)var $\(signature.name): \(typeName) {")
        writer.indented { writer in
            for line in construction { writer.line(line) }
        }
        writer.line("}")
        return writer.text
    }

    /// The function type: its SQL name, its arguments, the calls in queries and the call from SQLite.
    var function: String {
        var writer = SourceWriter()
        var conformances = signature.kind == .aggregate
            ? "BoutiqueQueries.AggregateDatabaseFunction" : "BoutiqueQueries.ScalarDatabaseFunction"
        if signature.kind == .property { conformances += ", BoutiqueQueries.QueryExpression" }
        writer.line("\(availability)\(access)\(isolation)struct \(typeName): \(conformances) {")
        writer.indented { writer in
            if signature.kind == .aggregate { writer.line("public typealias Element = \(signature.element)") }
            if signature.kind == .property { writer.line("public typealias QueryValue = \(outputRepresentation)") }
            writer.line("public let name = \(StringLiteral.quoted(sqlName))")
            writer.line("public let isDeterministic = \(isDeterministic)")
            writer.line("public let body: @Sendable \(bodyType)")
            writer.line("public init(_ body: @escaping @Sendable \(bodyType)) {")
            writer.indented { $0.line("self.body = body") }
            writer.line("}")
            writer.line("public var argumentCount: Int {")
            writer.indented { $0.line(argumentCount) }
            writer.line("}")
            switch signature.kind {
            case .scalar: writeScalar(&writer)
            case .aggregate: writeAggregate(&writer)
            case .property: writeProperty(&writer)
            }
        }
        writer.line("}")
        return writer.text
    }

    // MARK: The function type's members

    private var outputRepresentation: String { signature.outputRepresentation ?? "Void" }

    private var parameterTypes: String { signature.parameters.map(\.type).joined(separator: ", ") }

    /// `(String, Int) throws -> Bool`, `([Priority?]) throws -> Priority?`.
    private var bodyType: String {
        let arguments = signature.kind == .aggregate ? "[\(signature.element)]" : parameterTypes
        return "(\(arguments)) throws -> \(signature.output ?? "Void")"
    }

    private var argumentCount: String {
        guard !signature.parameters.isEmpty else { return "0" }
        let types = signature.parameters.map { "\($0.representation).self" }.joined(separator: ", ")
        return "Self.columnCount(of: [\(types)])"
    }

    private var fragments: String {
        "[" + signature.parameters.map { "\($0.name).queryFragment" }.joined(separator: ", ") + "]"
    }

    /// `let p0 = try arguments.decode(String.self)`, one per argument.
    private func writeDecodings(_ writer: inout SourceWriter) {
        for (index, parameter) in signature.parameters.enumerated() {
            writer.line("let p\(index) = try arguments.decode(\(parameter.representation).self)")
        }
    }

    /// `return try Output.encode(call)`, or the call and NULL for a function returning nothing.
    private func writeResult(of call: String, _ writer: inout SourceWriter) {
        if let output = signature.outputRepresentation {
            writer.line("return try \(output).encode(\(call))")
        } else {
            writer.line("try \(call)")
            writer.line("return .null")
        }
    }

    private func writeScalar(_ writer: inout SourceWriter) {
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

    private func writeAggregate(_ writer: inout SourceWriter) {
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

    private func writeProperty(_ writer: inout SourceWriter) {
        writer.line("public var queryFragment: BoutiqueQueries.QueryFragment {")
        writer.indented { $0.line("callFragment([])") }
        writer.line("}")
        writer.line("public func invoke(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> BoutiqueQueries.DatabaseValue {")
        writer.indented { writeResult(of: "body()", &$0) }
        writer.line("}")
    }

    // MARK: How `$name` reaches the function

    /// The lines that make the function type from the function.
    private var construction: [String] {
        let tryPrefix = signature.isThrowing ? "try " : ""
        switch owner {
        case .none, .instance:
            let target = owner == .instance ? "self." : ""
            switch signature.kind {
            case .scalar:
                return ["\(typeName)(\(target)\(signature.reference))"]
            case .aggregate:
                return ["\(typeName) { \(tryPrefix)\(target)\(aggregateCall("$0")) }"]
            case .property:
                return ["\(typeName) { \(tryPrefix)\(target)\(signature.reference) }"]
            }
        case .weakInstance:
            let names: [String]
            let call: String
            switch signature.kind {
            case .scalar:
                names = signature.parameters.indices.map { "p\($0)" }
                let base = signature.reference.prefix { $0 != "(" }
                call = "\(base)(" + signature.parameters.enumerated().map { index, parameter in
                    (parameter.label.map { "\($0): " } ?? "") + "p\(index)"
                }.joined(separator: ", ") + ")"
            case .aggregate:
                names = ["elements"]
                call = aggregateCall("elements")
            case .property:
                names = []
                call = signature.reference
            }
            let arguments = names.isEmpty ? "" : " " + names.joined(separator: ", ")
            return [
                "\(typeName) { [weak self]\(arguments) in",
                "    guard let self else { throw BoutiqueQueries.DatabaseFunctionDeallocated() }",
                "    return \(tryPrefix)self.\(call)",
                "}",
            ]
        }
    }

    /// `mode(priority: elements)`: the aggregate called with its sequence.
    private func aggregateCall(_ elements: String) -> String {
        let base = signature.reference.prefix { $0 != "(" }
        return "\(base)(\(signature.sequenceLabel.map { "\($0): " } ?? "")\(elements))"
    }
}
