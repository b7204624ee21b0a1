import SwiftDiagnostics
import SwiftSyntax

/// Reads the SQL of a `#sql` literal the way SQLite's tokenizer would, to find mistakes that would
/// otherwise surface only when the statement runs, or never.
///
/// ```swift
/// #sql("SELECT * FROM note WHERE title = '\(title)'")
/// // error: the interpolation is inside a SQL string, so it would be the text '?' (fix-it: remove the quotes)
/// ```
///
/// It knows strings (`'…'`), quoted identifiers (`"…"`, `` `…` ``, `[…]`), comments (`--`, `/* */`) and
/// parentheses; it does not parse SQL.
struct SQLCheck {
    private enum State {
        case code, string, identifier(Character), lineComment, blockComment
    }

    private var state = State.code
    /// Where the open string or identifier started, for the unterminated-quote error.
    private var openedAt: Syntax?
    private var depth = 0
    private var openParentheses: [Syntax] = []
    /// Set once a `\(raw: variable)` is seen: its text is unknown, so the parenthesis count is too.
    private var sawOpaqueRaw = false
    private(set) var diagnostics = DiagnosticList()

    static func check(_ pieces: [SQLPiece]) -> DiagnosticList {
        var check = SQLCheck()
        for (index, piece) in pieces.enumerated() {
            switch piece {
            case .text(let text, let node): check.scan(text, at: Syntax(node), placeholdersAllowed: false)
            case .rawText(let text, let node): check.scan(text, at: Syntax(node), placeholdersAllowed: true)
            case .opaqueRaw: check.sawOpaqueRaw = true
            case .value(let node): check.interpolation(node, neighbours: pieces, index: index)
            }
        }
        check.finish()
        return check.diagnostics
    }

    private mutating func scan(_ text: String, at node: Syntax, placeholdersAllowed: Bool) {
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            switch state {
            case .code:
                switch character {
                case "'": state = .string; openedAt = node
                case "\"", "`": state = .identifier(character); openedAt = node
                case "[": state = .identifier("]"); openedAt = node
                case "-" where next == "-": state = .lineComment; index += 1
                case "/" where next == "*": state = .blockComment; index += 1
                case "(": depth += 1; openParentheses.append(node)
                case ")":
                    depth -= 1
                    if !openParentheses.isEmpty { openParentheses.removeLast() }
                    if depth < 0, !sawOpaqueRaw {
                        diagnostics.add(node, .error("unbalancedParenthesis", "unbalanced parentheses in SQL: ')' has no matching '('"))
                        depth = 0
                    }
                case "?" where !placeholdersAllowed:
                    diagnostics.add(
                        node,
                        .error(
                            "unboundPlaceholder",
                            "'?' in #sql is a parameter that is never bound; interpolate the value instead, as \\(value)"))
                default: break
                }
            case .string:
                if character == "'" {
                    if next == "'" { index += 1 } else { state = .code }
                }
            case .identifier(let closing):
                if character == closing {
                    if next == closing, closing != "]" { index += 1 } else { state = .code }
                }
            case .lineComment:
                if character == "\n" || character == "\r\n" || character == "\r" { state = .code }
            case .blockComment:
                if character == "*", next == "/" { state = .code; index += 1 }
            }
            index += 1
        }
    }

    private mutating func interpolation(_ node: ExpressionSegmentSyntax, neighbours: [SQLPiece], index: Int) {
        switch state {
        case .code:
            break
        case .string:
            diagnostics.add(
                node,
                .error(
                    "interpolationInString",
                    "an interpolated value is bound as a parameter and cannot appear inside a SQL string: '\\(…)' would be the text '?'"),
                fixIts: Self.removeQuotes(around: index, in: neighbours))
        case .identifier:
            diagnostics.add(
                node,
                .error(
                    "interpolationInIdentifier",
                    "an interpolation cannot appear inside a quoted SQL identifier; interpolate the table or column itself, as \\(Note.self) or \\(Note.columns.title)"))
        case .lineComment, .blockComment:
            diagnostics.add(
                node,
                .error(
                    "interpolationInComment",
                    "an interpolation inside a SQL comment would bind a value that no parameter uses"))
        }
    }

    private mutating func finish() {
        switch state {
        case .string:
            diagnostics.add(openedAt ?? Syntax(TokenSyntax.stringQuoteToken()), .error("unterminatedString", "unterminated SQL string: a ' is never closed"))
        case .identifier(let closing):
            let opening = closing == "]" ? "[" : String(closing)
            diagnostics.add(
                openedAt ?? Syntax(TokenSyntax.stringQuoteToken()),
                .error("unterminatedIdentifier", "unterminated quoted identifier in SQL: a \(opening) is never closed"))
        default:
            break
        }
        if depth > 0, !sawOpaqueRaw, let node = openParentheses.last {
            diagnostics.add(node, .error("unclosedParenthesis", "unbalanced parentheses in SQL: a '(' is never closed"))
        }
    }

    /// `'\(x)'` → `\(x)`, when the quotes sit right beside the interpolation.
    private static func removeQuotes(around index: Int, in pieces: [SQLPiece]) -> [FixIt] {
        guard index > 0, index + 1 < pieces.count,
            case .text(_, let before) = pieces[index - 1], case .text(_, let after) = pieces[index + 1]
        else { return [] }
        let beforeText = before.content.text
        let afterText = after.content.text
        guard beforeText.hasSuffix("'"), !beforeText.hasSuffix("\\'"), afterText.hasPrefix("'") else { return [] }
        return [
            FixIt(
                message: FixMessage("remove the quotes around the interpolation"),
                changes: [
                    .replace(
                        oldNode: Syntax(before),
                        newNode: Syntax(before.with(\.content, before.content.with(\.tokenKind, .stringSegment(String(beforeText.dropLast())))))),
                    .replace(
                        oldNode: Syntax(after),
                        newNode: Syntax(after.with(\.content, after.content.with(\.tokenKind, .stringSegment(String(afterText.dropFirst())))))),
                ])
        ]
    }
}
