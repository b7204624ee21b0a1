import SwiftDiagnostics
import SwiftParser
import SwiftSyntax

/// What a `@DatabaseFunction(…)` attribute says, read from its arguments.
///
/// ```swift
/// @DatabaseFunction("is_past_due", as: ((Date.UnixTimeRepresentation) -> Bool).self, isDeterministic: true)
/// ```
///
/// Arguments the macro cannot read at compile time (a variable instead of a literal) are reported in
/// ``problems``.
struct DatabaseFunctionOptions {
    /// The SQL name from the first, unlabeled argument.
    var name: String?
    /// `as: ((A, B) -> R).self`: how each argument and the result are represented in SQL.
    var functionRepresentation: FunctionTypeSyntax?
    /// `as: R.self` on a computed property: how its value is represented in SQL.
    var valueRepresentation: TypeSyntax?
    /// The `as:` argument, to point diagnostics at.
    var representationArgument: ExprSyntax?
    var isDeterministic = false
    var problems = DiagnosticList()

    init(_ attribute: AttributeSyntax) {
        guard case .argumentList(let arguments) = attribute.arguments else { return }
        for argument in arguments {
            let expression = argument.expression
            switch argument.label?.text {
            case nil:
                guard let literal = expression.as(StringLiteralExprSyntax.self),
                    let value = literal.representedLiteralValue, !value.isEmpty
                else {
                    problems.add(
                        expression, .error("functionNameNotLiteral", "the function's SQL name must be a non-empty string literal"))
                    break
                }
                name = value
            case "as":
                representationArgument = expression
                readRepresentation(expression)
            case "isDeterministic":
                guard let literal = expression.as(BooleanLiteralExprSyntax.self) else {
                    problems.add(
                        expression, .error("isDeterministicNotLiteral", "'isDeterministic:' must be 'true' or 'false'"))
                    break
                }
                isDeterministic = literal.literal.tokenKind == .keyword(.true)
            default:
                break  // the compiler has already rejected an unknown label
            }
        }
    }

    /// `((A, B) -> R).self` gives a function type, `R.self` a value type.
    private mutating func readRepresentation(_ expression: ExprSyntax) {
        guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "self",
            let base = member.base
        else {
            problems.add(
                expression,
                .error("representationNotType", "'as:' takes a type written as '((Argument) -> Result).self' or 'Result.self'"))
            return
        }
        // In an expression, `((A) -> R)` is a parenthesized arrow; read as a type, it is a function type.
        if let tuple = base.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first,
            only.label == nil
        {
            var parser = Parser(only.expression.trimmedDescription)
            let type = TypeSyntax.parse(from: &parser)
            if let function = type.as(FunctionTypeSyntax.self), !type.hasError {
                functionRepresentation = function
                return
            }
        }
        var parser = Parser(base.trimmedDescription)
        let type = TypeSyntax.parse(from: &parser)
        guard !type.hasError else {
            problems.add(expression, .error("representationNotType", "'as:' takes a type written as 'Type.self'"))
            return
        }
        valueRepresentation = type
    }
}
