import BoutiqueSQLite

extension QueryFragment {
    /// The fragment with each bound value written into the SQL as a literal, for the statements SQLite
    /// keeps as text and so cannot take parameters: a trigger's body, a view's select.
    ///
    /// ```swift
    /// QueryFragment("SELECT ?, ?", bindings: [.text("it's"), .integer(-1)]).inlined().sql
    /// // SELECT 'it''s', (-1)
    /// ```
    ///
    /// Each value becomes the literal that reads back as exactly that value (``SQLLiteral``): text is
    /// quoted with embedded quotes doubled, so no value can end its literal early; blobs are `X'…'`;
    /// numbers are written in full, a negative one in parentheses so that a `-` before it cannot turn
    /// into a `--` comment. Only the `?` placeholders of the SQL text are replaced: a `?` inside a
    /// string, a quoted identifier or a comment is text. Where a literal would run into the token
    /// before or after it (`abc?` would become `abc1`), a space keeps them apart.
    ///
    /// A fragment with more placeholders than values keeps the extra `?`, and one with more values keeps
    /// the extra bindings: SQLite then refuses the statement (a trigger or view "cannot use variables")
    /// instead of reading a shifted value.
    public func inlined() -> QueryFragment {
        guard !bindings.isEmpty else { return self }
        let text = Array(sql.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(text.count + bindings.count * 8)
        var next = 0
        var index = 0
        while index < text.count {
            let byte = text[index]
            if let end = SQLTextScan.endOfQuotedOrComment(in: text, at: index) {
                output += text[index..<end]
                index = end
                continue
            }
            let isPlaceholder = byte == UInt8(ascii: "?")
                && !(index + 1 < text.count && Self.isDigit(text[index + 1]))
            guard isPlaceholder, next < bindings.count else {
                output.append(byte)
                index += 1
                continue
            }
            var literal = SQLLiteral.render(bindings[next])
            if literal.hasPrefix("-") { literal = "(" + literal + ")" }
            next += 1
            if let previous = output.last, Self.joinsWithLiteral(previous) { output.append(UInt8(ascii: " ")) }
            output += literal.utf8
            if index + 1 < text.count, Self.joinsWithLiteral(text[index + 1]) { output.append(UInt8(ascii: " ")) }
            index += 1
        }
        return QueryFragment(String(decoding: output, as: UTF8.self), bindings: Array(bindings[next...]))
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Whether `byte` beside a literal would make one token of both: a letter, digit, `_`, `$`, a byte
    /// of a non-ASCII character, a `.` (of a number), or a quote or bracket (of a string or name).
    private static func joinsWithLiteral(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), 0x80...0xFF:
            return true
        case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "."), UInt8(ascii: "'"), UInt8(ascii: "\""),
            UInt8(ascii: "`"), UInt8(ascii: "["), UInt8(ascii: "]"):
            return true
        default:
            return false
        }
    }
}
