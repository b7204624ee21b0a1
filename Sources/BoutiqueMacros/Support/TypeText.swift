import SwiftSyntax

/// Questions about a property's type, and the type of a literal initializer when there is no annotation.
///
/// ```swift
/// TypeText.isOptional(TypeSyntax("Int?"))        // true
/// TypeText.inferred(from: ExprSyntax("false"))   // "Bool"
/// ```
enum TypeText {
    /// `true` for `T?`, `T!`, `Optional<T>` and `Swift.Optional<T>`.
    static func isOptional(_ type: TypeSyntax) -> Bool {
        if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return true }
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            return identifier.name.text == "Optional" && identifier.genericArgumentClause != nil
        }
        if let member = type.as(MemberTypeSyntax.self) {
            return member.baseType.trimmedDescription == "Swift" && member.name.text == "Optional"
                && member.genericArgumentClause != nil
        }
        return false
    }

    /// `[Link]` for `[Link]` or `[Link]?`, `[String: Int]` likewise: an array or dictionary type
    /// written with brackets, which a `Codable` selection stores as JSON. `[UInt8]` is a blob, not JSON.
    static func jsonCollection(_ type: String) -> String? {
        var text = type
        if text.hasSuffix("?") { text.removeLast() }
        guard text.hasPrefix("["), text.hasSuffix("]"), text != "[UInt8]", text != "[Swift.UInt8]" else { return nil }
        return text
    }

    /// `true` when the type's source text ends in `?` or starts with `Optional<`: a representation named in
    /// `@Column(as:)` that is already optional.
    static func isOptional(text: String) -> Bool {
        text.hasSuffix("?") || text.hasPrefix("Optional<") || text.hasPrefix("Swift.Optional<")
    }

    /// The type of an initializer whose type is obvious from its spelling, `nil` otherwise.
    ///
    /// Literals (`false`, `0`, `-1`, `0.5`, `""`) and calls of a type's initializer (`Date()`, `UUID()`,
    /// `Date(timeIntervalSince1970: 0)`) are obvious; anything else needs an annotation, as the compiler
    /// alone knows its type.
    static func inferred(from expression: ExprSyntax) -> String? {
        if expression.is(BooleanLiteralExprSyntax.self) { return "Bool" }
        if expression.is(IntegerLiteralExprSyntax.self) { return "Int" }
        if expression.is(FloatLiteralExprSyntax.self) { return "Double" }
        if expression.is(StringLiteralExprSyntax.self) { return "String" }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            if prefix.expression.is(IntegerLiteralExprSyntax.self) { return "Int" }
            if prefix.expression.is(FloatLiteralExprSyntax.self) { return "Double" }
        }
        if let call = expression.as(FunctionCallExprSyntax.self), call.trailingClosure == nil,
            let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
            callee.argumentNames == nil, let first = callee.baseName.text.first, first.isUppercase
        {
            return callee.baseName.text
        }
        return nil
    }
}
