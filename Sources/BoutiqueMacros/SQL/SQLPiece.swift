import SwiftParser
import SwiftSyntax

/// One part of a `#sql` string literal: literal text, or an interpolation and what it will insert.
///
/// ```swift
/// #sql("SELECT * FROM t WHERE a = \(value) \(raw: "LIMIT 1")")
/// // .text("SELECT * FROM t WHERE a = "), .value, .text(" "), .rawText("LIMIT 1")
/// ```
enum SQLPiece {
    /// Literal SQL as written in the string literal (escapes resolved).
    case text(String, StringSegmentSyntax)
    /// `\(value)`, `\(Note.self)`, `\(identifier: …)`: inserts a bound parameter, a name or an expression,
    /// never text the check can see.
    case value(ExpressionSegmentSyntax)
    /// `\(raw: "literal")`: verbatim SQL the check reads like the rest.
    case rawText(String, ExpressionSegmentSyntax)
    /// `\(raw: someString)`: verbatim SQL unknown until run time.
    case opaqueRaw(ExpressionSegmentSyntax)

    /// The pieces of `literal`, in order.
    static func pieces(of literal: StringLiteralExprSyntax) -> [SQLPiece] {
        let delimiter = literal.openingPounds?.text ?? ""
        return literal.segments.map { segment -> SQLPiece in
            if case .stringSegment(let text) = segment {
                return .text(unescaped(text.content.text, delimiter: delimiter), text)
            }
            guard case .expressionSegment(let interpolation) = segment else {
                return .text("", StringSegmentSyntax(content: .stringSegment("")))
            }
            let arguments = Array(interpolation.expressions)
            guard arguments.count == 1, let argument = arguments.first, argument.label?.text == "raw" else {
                return .value(interpolation)
            }
            if let string = argument.expression.as(StringLiteralExprSyntax.self),
                let value = string.representedLiteralValue
            {
                return .rawText(value, interpolation)
            }
            return .opaqueRaw(interpolation)
        }
    }

    /// Resolves Swift escapes (`\n`, `\"`, `\u{…}`, line continuations) in a segment's source text.
    ///
    /// Only what the SQL check needs is exact: quotes, parentheses, `?` and line ends.
    static func unescaped(_ source: String, delimiter: String) -> String {
        let escape = "\\" + delimiter
        guard source.contains(escape) else { return source }
        var result = ""
        var rest = Substring(source)
        while let range = rest.firstRange(of: escape) {
            result += rest[..<range.lowerBound]
            rest = rest[range.upperBound...]
            guard let next = rest.first else { break }
            rest = rest.dropFirst()
            switch next {
            case "n": result += "\n"
            case "r": result += "\r"
            case "t": result += "\t"
            case "0": result += "\0"
            case "\n", "\r":  // a line continuation in a multi-line literal
                rest = rest.drop { $0 == " " || $0 == "\t" }
            case "u":
                if rest.first == "{", let close = rest.firstIndex(of: "}") {
                    let hex = rest[rest.index(after: rest.startIndex)..<close]
                    if let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) {
                        result.unicodeScalars.append(scalar)
                    }
                    rest = rest[rest.index(after: close)...]
                }
            default: result.append(next)  // \\, \", \'
            }
        }
        return result + rest
    }
}
