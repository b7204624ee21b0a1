import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@DatabaseFunction`: a Swift function SQL can call, as `$name` in queries.
///
/// ```swift
/// @DatabaseFunction func exclaim(_ text: String) -> String { text + "!" }
///
/// options.prepareDatabase { conn in try conn.add(function: $exclaim) }
/// Reminder.select { $exclaim($0.title) }   // SELECT "exclaim"("reminder"."title") FROM "reminder"
/// ```
///
/// The expansion is two peers: a function type conforming to `ScalarDatabaseFunction` (or, for a
/// function of `some Sequence<Element>`, `AggregateDatabaseFunction`), whose `callAsFunction` takes
/// one query expression per argument, and `$name`, which makes one from the function. A computed
/// property gives a function without arguments that is itself an expression: `$now`.
public struct DatabaseFunctionMacro: PeerMacro {
    /// The expansion is laid out as written: reformatting it would only cost time.
    public static var formatMode: FormatMode { .disabled }

    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let options = DatabaseFunctionOptions(node)
        var problems = options.problems
        let signature: DatabaseFunctionSignature
        let modifiers: DeclModifierListSyntax
        let attributes: AttributeListSyntax
        let keyword: TokenSyntax
        if let function = declaration.as(FunctionDeclSyntax.self) {
            signature = DatabaseFunctionSignature(function: function, options: options)
            modifiers = function.modifiers
            attributes = function.attributes
            keyword = function.funcKeyword
        } else if let property = declaration.as(VariableDeclSyntax.self),
            let read = DatabaseFunctionSignature(property: property, options: options)
        {
            signature = read
            modifiers = property.modifiers
            attributes = property.attributes
            keyword = property.bindingSpecifier
        } else {
            context.diagnose(notAFunction(node, declaration))
            return []
        }
        problems.append(contentsOf: signature.problems)
        let owner = owner(
            of: signature, node: node, keyword: keyword, modifiers: modifiers, in: context.lexicalContext,
            problems: &problems)
        for diagnostic in problems.items { context.diagnose(diagnostic) }
        guard !problems.hasErrors else { return [] }

        let expansion = DatabaseFunctionExpansion(
            signature: signature, sqlName: options.name ?? signature.name, isDeterministic: options.isDeterministic,
            typeName: context.makeUniqueName(signature.name).text, access: accessPrefix(modifiers),
            availability: availability(attributes), owner: owner)
        return [verbatim(expansion.projection), verbatim(expansion.function)]
    }

    /// The error for a declaration that is neither a function nor a computed property; the fix-it
    /// removes the attribute.
    private static func notAFunction(_ node: AttributeSyntax, _ declaration: some DeclSyntaxProtocol) -> Diagnostic {
        let message = MacroMessage.error(
            "notAFunction", "@DatabaseFunction applies to a function or a computed property")
        guard let attributed = declaration.asProtocol(WithAttributesSyntax.self) else {
            return Diagnostic(node: node, message: message)
        }
        return Diagnostic(node: node, message: message, fixIts: [FixIts.removeAttribute(node, from: attributed)])
    }

    /// How `$name` reaches the function, from the declarations around it; a method an actor isolates
    /// (the fix-it marks it `nonisolated`) and a protocol requirement are reported.
    private static func owner(
        of signature: DatabaseFunctionSignature, node: AttributeSyntax, keyword: TokenSyntax,
        modifiers: DeclModifierListSyntax, in lexicalContext: [Syntax], problems: inout DiagnosticList
    ) -> DatabaseFunctionExpansion.Owner {
        guard let enclosing = lexicalContext.first(where: { $0.asProtocol(DeclGroupSyntax.self) != nil || $0.isFunctionBody }),
            let group = enclosing.asProtocol(DeclGroupSyntax.self)
        else { return .none }
        let name = signature.name
        if group.is(ProtocolDeclSyntax.self) {
            problems.add(
                node,
                .error("protocolRequirement", "@DatabaseFunction applies to a function with a body, not to a protocol requirement"))
            return .none
        }
        if signature.isStatic { return .none }
        if group.is(ActorDeclSyntax.self), !modifiers.contains(where: { $0.name.tokenKind == .keyword(.nonisolated) }) {
            problems.add(
                keyword,
                .error(
                    "actorIsolatedFunction",
                    "'\(name)' is isolated to the actor, but SQLite calls a database function synchronously from the database's connections"),
                fixIts: [FixIt.replace(
                    message: FixMessage("mark it 'nonisolated'"), oldNode: keyword,
                    newNode: keyword.with(\.tokenKind, .identifier("nonisolated \(keyword.text)")))])
            return .none
        }
        return group.is(ClassDeclSyntax.self) ? .weakInstance : .instance
    }

    /// `"public "`, `"package "`, `"private "`, `"fileprivate "`, or `""`: the declaration's access,
    /// which the peers share (`open` becomes `public`: a struct cannot be open).
    private static func accessPrefix(_ modifiers: DeclModifierListSyntax) -> String {
        for modifier in modifiers where modifier.detail == nil {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            case .keyword(.internal): return "internal "
            case .keyword(.fileprivate): return "fileprivate "
            case .keyword(.private): return "private "
            default: continue
            }
        }
        return ""
    }

    /// The `@available` attributes, which the peers need as much as the function does.
    private static func availability(_ attributes: AttributeListSyntax) -> String {
        attributes.compactMap { $0.as(AttributeSyntax.self) }
            .filter { $0.attributeName.trimmedDescription == "available" }
            .map { $0.trimmedDescription + " " }
            .joined()
    }

    /// A declaration carried as text: the compiler parses the expansion itself, so parsing it here
    /// would only cost time.
    private static func verbatim(_ text: String) -> DeclSyntax {
        DeclSyntax(MissingDeclSyntax(attributes: [], modifiers: [], placeholder: .identifier(text)))
    }
}

extension Syntax {
    /// `true` for the declarations whose body makes a function local: functions, initializers,
    /// accessors and closures.
    fileprivate var isFunctionBody: Bool {
        self.is(FunctionDeclSyntax.self) || self.is(InitializerDeclSyntax.self) || self.is(AccessorDeclSyntax.self)
            || self.is(ClosureExprSyntax.self)
    }
}
