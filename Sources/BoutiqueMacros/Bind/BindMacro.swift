import SwiftSyntax
import SwiftSyntaxMacros

/// `#bind(value)` and `#bind(value, as: Representation.self)`: a Swift value bound as a parameter,
/// typed by its representation.
///
/// ```swift
/// Reminder.update { $0.tags = #bind(["home", "garden"]) }
/// ```
///
/// The expansion is `BoutiqueQueries.SQLExpression(bound: value)` with the same arguments: the
/// representation comes from the `as:` argument or from the context, as the macro's signature infers it.
public struct BindMacro: ExpressionMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax,
        in context: some MacroExpansionContext
    ) throws -> ExprSyntax {
        var arguments: [LabeledExprSyntax] = []
        for argument in node.arguments {
            var argument = argument.trimmed
            if arguments.isEmpty {
                argument.label = .identifier("bound")
                argument.colon = .colonToken(trailingTrivia: .space)
            }
            arguments.append(argument)
        }
        let callee = MemberAccessExprSyntax(
            base: DeclReferenceExprSyntax(baseName: .identifier("BoutiqueQueries")), name: .identifier("SQLExpression"))
        return ExprSyntax(FunctionCallExprSyntax(
            calledExpression: callee, leftParen: .leftParenToken(), arguments: LabeledExprListSyntax(arguments), rightParen: .rightParenToken()))
    }
}
