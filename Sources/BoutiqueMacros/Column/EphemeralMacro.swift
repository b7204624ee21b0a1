import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Ephemeral`: a stored property that is not a column.
///
/// ```swift
/// @Table struct Note {
///     let id: UUID
///     @Ephemeral var isSelected = false   // never read from or written to the table
/// }
/// ```
///
/// Decoding a row leaves the property at its default, so it must have one. The macro generates nothing.
public struct EphemeralMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self) else {
            context.diagnose(Diagnostic(
                node: node,
                message: MacroMessage.error("ephemeralNotOnProperty", "@Ephemeral applies to a stored property")))
            return []
        }
        if variable.isComputed || !variable.isStoredInstanceCandidate {
            context.diagnose(Diagnostic(
                node: node,
                message: MacroMessage.warning(
                    "ephemeralNotNeeded", "@Ephemeral has no effect here: only stored instance properties are columns"),
                fixIts: [FixIts.removeAttribute(node, from: variable)]))
            return []
        }
        let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
        let bindings = Array(variable.bindings)
        for (index, binding) in bindings.enumerated() where binding.initializer == nil && binding.accessorBlock == nil {
            // `var a, b: Int?` gives `a` the type of `b`.
            let type = binding.typeAnnotation?.type ?? bindings[(index + 1)...].lazy.compactMap { $0.typeAnnotation?.type }.first
            if !isLet, let type, TypeText.isOptional(type) { continue }  // starts as nil
            let name = binding.pattern.trimmedDescription
            var fixIts: [FixIt] = []
            if binding.typeAnnotation != nil {
                let edited = binding.with(
                    \.initializer,
                    InitializerClauseSyntax(
                        equal: .equalToken(leadingTrivia: .space, trailingTrivia: .space),
                        value: ExprSyntax(EditorPlaceholderExprSyntax(placeholder: .identifier("<#default#>")))))
                fixIts.append(FixIt.replace(
                    message: FixMessage("add a default value"), oldNode: binding,
                    newNode: edited.with(\.typeAnnotation, binding.typeAnnotation?.with(\.trailingTrivia, []))))
            }
            context.diagnose(Diagnostic(
                node: binding.pattern,
                message: MacroMessage.error(
                    "ephemeralWithoutDefault",
                    "@Ephemeral property '\(name)' needs a default value: rows do not store it, so decoding leaves it at its default"),
                fixIts: fixIts))
        }
        return []
    }
}
