import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `#sql("…")`: a SQL statement or expression with every interpolated value bound as a parameter,
/// checked when compiling.
///
/// ```swift
/// let notes = try #sql("SELECT \(Note.columns) FROM \(Note.self) WHERE \(Note.columns.title) = \(title)", as: Note.self)
///     .fetchAll(connection)
/// ```
///
/// The expansion is the literal typed as `SQLQuery<Output>`; the runtime's string interpolation does the
/// binding. The macro reads the literal first and reports interpolations inside SQL strings, quoted
/// identifiers or comments, unterminated quotes, unbalanced parentheses and bare `?` placeholders.
public struct SQLMacro: ExpressionMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax,
        in context: some MacroExpansionContext
    ) throws -> ExprSyntax {
        let arguments = Array(node.arguments)
        guard let first = arguments.first else {
            throw MacroMessage.error("sqlMissingLiteral", "#sql takes a string literal")
        }
        if let literal = first.expression.as(StringLiteralExprSyntax.self) {
            for diagnostic in SQLCheck.check(SQLPiece.pieces(of: literal)).items { context.diagnose(diagnostic) }
        } else {
            // The argument is still a typed query, so the expansion below compiles; only the check is lost.
            context.diagnose(Diagnostic(
                node: first.expression,
                message: MacroMessage.error(
                    "sqlNotLiteral", "#sql takes a string literal, so that its SQL can be checked when compiling")))
        }

        // Built as nodes around the literal, not as text to parse: the plugin's time goes into parsing.
        let query = first.expression.trimmed
        if let output = arguments.first(where: { $0.label?.text == "as" })?.expression.trimmed {
            let callee = MemberAccessExprSyntax(
                base: DeclReferenceExprSyntax(baseName: .identifier("BoutiqueQueries")), name: .identifier("SQLQuery"))
            return ExprSyntax(FunctionCallExprSyntax(
                calledExpression: callee, leftParen: .leftParenToken(),
                arguments: [
                    LabeledExprSyntax(expression: query, trailingComma: .commaToken(trailingTrivia: .space)),
                    LabeledExprSyntax(label: .identifier("as"), colon: .colonToken(trailingTrivia: .space), expression: output),
                ],
                rightParen: .rightParenToken()))
        }
        // The literal takes its type from the macro's result: `SQLQuery<Void>`, or the one the context asks for.
        return ExprSyntax(TupleExprSyntax(elements: [LabeledExprSyntax(expression: query)]))
    }
}
