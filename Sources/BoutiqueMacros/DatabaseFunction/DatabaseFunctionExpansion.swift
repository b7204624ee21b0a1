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

    var outputRepresentation: String { signature.outputRepresentation ?? "Void" }

    var parameterTypes: String { signature.parameters.map(\.type).joined(separator: ", ") }

    /// `(String, Int) throws -> Bool`, `([Priority?]) throws -> Priority?`.
    var bodyType: String {
        let arguments = signature.kind == .aggregate ? "[\(signature.element)]" : parameterTypes
        return "(\(arguments)) throws -> \(signature.output ?? "Void")"
    }

    var argumentCount: String {
        guard !signature.parameters.isEmpty else { return "0" }
        let types = signature.parameters.map { "\($0.representation).self" }.joined(separator: ", ")
        return "Self.columnCount(of: [\(types)])"
    }

    var fragments: String {
        "[" + signature.parameters.map { "\($0.name).queryFragment" }.joined(separator: ", ") + "]"
    }
}
