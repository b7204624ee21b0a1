import SwiftParser
import SwiftSyntax

/// The column default a property's initializer gives, as source text for a `DatabaseValue`.
///
/// Only literals become SQL defaults: they mean the same thing in Swift and in SQL. A call like
/// `Date()` is evaluated when a value is made, so the schema has no default for it.
///
/// ```swift
/// LiteralDefault.databaseValue(for: ExprSyntax("false"))   // ".integer(0)"
/// LiteralDefault.databaseValue(for: ExprSyntax("\"it's\""))  // ".text(\"it's\")"
/// LiteralDefault.databaseValue(for: ExprSyntax("Date()"))  // nil
/// ```
enum LiteralDefault {
    static func databaseValue(for expression: ExprSyntax) -> String? {
        if let boolean = expression.as(BooleanLiteralExprSyntax.self) {
            return boolean.literal.tokenKind == .keyword(.true) ? ".integer(1)" : ".integer(0)"
        }
        if expression.is(NilLiteralExprSyntax.self) { return ".null" }
        if let integer = expression.as(IntegerLiteralExprSyntax.self) {
            return ".integer(\(integer.literal.text))"
        }
        if let float = expression.as(FloatLiteralExprSyntax.self) {
            return ".real(\(float.literal.text))"
        }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            if let integer = prefix.expression.as(IntegerLiteralExprSyntax.self) {
                return ".integer(-\(integer.literal.text))"
            }
            if let float = prefix.expression.as(FloatLiteralExprSyntax.self) {
                return ".real(-\(float.literal.text))"
            }
        }
        if let string = expression.as(StringLiteralExprSyntax.self), let value = string.representedLiteralValue {
            return ".text(\(StringLiteral.quoted(value)))"
        }
        return nil
    }
}
