import SwiftDiagnostics
import SwiftSyntax

/// A function or computed property marked `@DatabaseFunction`, read into what the expansion needs:
/// its arguments, its result, and how it is called.
///
/// ```swift
/// func exclaim(_ text: String) -> String                       // scalar, one argument
/// func mode(priority priorities: some Sequence<Priority?>)     // aggregate over Priority?
/// var now: Date { Date() }                                     // scalar property, no argument
/// ```
///
/// What a database function cannot be (async, generic, variadic, `inout`, `mutating`) is reported in
/// ``problems``.
struct DatabaseFunctionSignature {
    enum Kind {
        /// A function called once per row.
        case scalar
        /// A function of a sequence: one result per group of rows.
        case aggregate
        /// A computed property: a scalar function without arguments, used without a call.
        case property
    }

    var kind: Kind = .scalar
    /// The name without backticks: the default SQL name and the base of `$name`.
    var name = ""
    /// Swift code naming the function or property: `concat(first:second:)`, `` `default` ``, `now`.
    var reference = ""
    /// The SQL arguments, in order; for an aggregate, those of one row.
    var parameters: [DatabaseFunctionParameter] = []
    /// The Swift result type; `nil` for `Void`.
    var output: String?
    /// The result's representation: `output`, or what `as:` names.
    var outputRepresentation: String?
    var isThrowing = false
    var isStatic = false
    /// An aggregate's element type as the function takes it: `Priority?`, `(String, separator: String)`.
    var element = ""
    /// An aggregate's argument label, as the function is called: `priority` in `mode(priority:)`.
    var sequenceLabel: String?
    var problems = DiagnosticList()

    /// Reads a function; `options` gives the representations of `as:`.
    init(function: FunctionDeclSyntax, options: DatabaseFunctionOptions) {
        name = function.name.text.trimmingBackticks
        isStatic = function.modifiers.containsStatic
        checkEffects(function.signature.effectSpecifiers?.asyncSpecifier)
        isThrowing = function.signature.effectSpecifiers?.throwsClause != nil
        if let generics = function.genericParameterClause {
            problems.add(generics, .error(
                "genericFunction",
                "'\(name)' is generic, but SQL calls a database function with one concrete type per argument"))
        }
        if let mutating = function.modifiers.first(where: { $0.name.tokenKind == .keyword(.mutating) }) {
            problems.add(
                mutating,
                .error("mutatingFunction", "'\(name)' is mutating, but a database function cannot change the value it belongs to"),
                fixIts: [FixIts.removeToken(mutating.name)])
        }

        let declared = Array(function.signature.parameterClause.parameters)
        let labels = declared.map { ($0.firstName.tokenKind == .wildcard ? "_" : $0.firstName.text) + ":" }.joined()
        reference = declared.isEmpty ? function.name.text : "\(function.name.text)(\(labels))"
        let representation = options.functionRepresentation
        if options.valueRepresentation != nil {
            problems.add(
                options.representationArgument.map(Syntax.init) ?? Syntax(function.name),
                .error(
                    "functionRepresentation",
                    "'\(name)' is a function: 'as:' takes its type with each representation, written '((Argument) -> Result).self'"))
        }
        if let representation, representation.parameters.count != declared.count {
            problems.add(
                options.representationArgument.map(Syntax.init) ?? Syntax(function.name),
                .error(
                    "representationArity",
                    "the function type in 'as:' takes \(representation.parameters.count) arguments, but '\(name)' takes \(declared.count)"))
        }

        if declared.count == 1, let only = declared.first, let elementType = Self.sequenceElement(of: only.type) {
            kind = .aggregate
            readAggregate(only, element: elementType, representation: representation?.parameters.first?.type)
        } else {
            let representations = representation.map { Array($0.parameters.map(\.type)) } ?? []
            for (index, parameter) in declared.enumerated() {
                let represented = index < representations.count ? representations[index] : nil
                if let read = readParameter(parameter, index: index, representation: represented) {
                    parameters.append(read)
                }
            }
        }
        let returned = function.signature.returnClause?.type
        output = returned.flatMap { Self.isVoid($0) ? nil : $0.trimmedDescription }
        if let represented = representation?.returnClause.type {
            outputRepresentation = Self.isVoid(represented) ? nil : represented.trimmedDescription
        } else {
            outputRepresentation = output
        }
    }

    /// Reads a computed property; `options` gives the representation of `as:`. Returns `nil` for a
    /// stored property, which has nothing to call.
    init?(property: VariableDeclSyntax, options: DatabaseFunctionOptions) {
        guard property.bindingSpecifier.tokenKind == .keyword(.var), property.bindings.count == 1,
            let binding = property.bindings.first, let pattern = binding.pattern.as(IdentifierPatternSyntax.self),
            let accessors = binding.accessorBlock, !accessors.isObserversOnly
        else { return nil }
        kind = .property
        name = pattern.identifier.text.trimmingBackticks
        reference = pattern.identifier.text
        isStatic = property.modifiers.containsStatic
        if case .accessors(let list) = accessors.accessors,
            let getter = list.first(where: { $0.accessorSpecifier.tokenKind == .keyword(.get) })
        {
            checkEffects(getter.effectSpecifiers?.asyncSpecifier)
            isThrowing = getter.effectSpecifiers?.throwsClause != nil
        }
        guard let type = binding.typeAnnotation?.type else {
            problems.add(pattern, .error("missingType", "add a type annotation to '\(name)': it is the function's result type"))
            return
        }
        output = Self.isVoid(type) ? nil : type.trimmedDescription
        outputRepresentation = options.valueRepresentation?.trimmedDescription ?? output
        if options.functionRepresentation != nil {
            problems.add(
                options.representationArgument.map(Syntax.init) ?? Syntax(pattern),
                .error(
                    "propertyRepresentation",
                    "'\(name)' is a property: 'as:' takes its result's representation, written 'Representation.self'"))
        }
    }

    /// `async` cannot be called from SQL: the fix-it removes it.
    private mutating func checkEffects(_ async: TokenSyntax?) {
        guard let async else { return }
        problems.add(
            async,
            .error("asyncFunction", "'\(name)' is async, but SQLite calls a database function synchronously"),
            fixIts: [FixIts.removeToken(async)])
    }
}

extension DeclModifierListSyntax {
    /// `true` for `static` and `class` members.
    var containsStatic: Bool {
        contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
    }
}
