import SwiftDiagnostics
import SwiftParser
import SwiftSyntax

/// What a `@Column(…)` attribute says, read from its arguments.
///
/// ```swift
/// @Column("body_text", as: Date.ISO8601Representation.self, primaryKey: false, generated: .virtual("…"))
/// ```
///
/// Arguments the macros cannot read at compile time (a variable instead of a literal) are reported in
/// ``problems``; the `@Column` macro emits them, `@Table` falls back to the defaults.
struct ColumnOptions {
    /// The SQL name from the first, unlabeled argument.
    var name: String?
    /// The representation type's source text, from `as: R.self`.
    var representation: String?
    /// `primaryKey: true` / `false`; `nil` when not given.
    var primaryKey: Bool?
    /// The `generated:` argument's expression, unless it is `nil`.
    var generated: ExprSyntax?
    var lazyInitializable: Bool?
    var problems = DiagnosticList()

    init() {}

    init(_ attribute: AttributeSyntax) {
        guard case .argumentList(let arguments) = attribute.arguments else { return }
        for argument in arguments {
            let expression = argument.expression
            switch argument.label?.text {
            case nil:
                if expression.is(NilLiteralExprSyntax.self) { break }
                guard let literal = expression.as(StringLiteralExprSyntax.self),
                    let value = literal.representedLiteralValue
                else {
                    problems.add(expression, .error("columnNameNotLiteral", "the column name must be a string literal"))
                    break
                }
                if value.isEmpty {
                    problems.add(expression, .error("columnNameEmpty", "the column name must not be empty"))
                } else {
                    name = value
                }
            case "as":
                if expression.is(NilLiteralExprSyntax.self) { break }
                guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "self",
                    let base = member.base
                else {
                    problems.add(
                        expression, .error("representationNotType", "'as:' takes a type written as 'Type.self'"))
                    break
                }
                representation = base.trimmedDescription
            case "primaryKey":
                if expression.is(NilLiteralExprSyntax.self) { break }
                guard let literal = expression.as(BooleanLiteralExprSyntax.self) else {
                    problems.add(expression, .error("primaryKeyNotLiteral", "'primaryKey:' must be 'true' or 'false'"))
                    break
                }
                primaryKey = literal.literal.tokenKind == .keyword(.true)
            case "lazyInitializable":
                if expression.is(NilLiteralExprSyntax.self) { break }
                guard let literal = expression.as(BooleanLiteralExprSyntax.self) else {
                    problems.add(
                        expression, .error("lazyInitializableNotLiteral", "'lazyInitializable:' must be 'true' or 'false'"))
                    break
                }
                lazyInitializable = literal.literal.tokenKind == .keyword(.true)
            case "generated":
                if expression.is(NilLiteralExprSyntax.self) { break }
                generated = expression.trimmed
            default:
                break  // the compiler has already rejected an unknown label
            }
        }
    }
}
