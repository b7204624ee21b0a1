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
        guard let literal = first.expression.as(StringLiteralExprSyntax.self) else {
            context.diagnose(Diagnostic(
                node: first.expression,
                message: MacroMessage.error(
                    "sqlNotLiteral", "#sql takes a string literal, so that its SQL can be checked when compiling")))
            return "BoutiqueQueries.SQLQuery<Void>(BoutiqueQueries.QueryFragment())"
        }
        let diagnostics = SQLCheck.check(SQLPiece.pieces(of: literal))
        for diagnostic in diagnostics.items { context.diagnose(diagnostic) }

        let query = literal.trimmed
        if let output = arguments.first(where: { $0.label?.text == "as" })?.expression.trimmed {
            return "BoutiqueQueries.SQLQuery(\(query), as: \(output))"
        }
        // The literal takes its type from the macro's result: `SQLQuery<Void>`, or the one the context asks for.
        return "(\(query))"
    }
}
