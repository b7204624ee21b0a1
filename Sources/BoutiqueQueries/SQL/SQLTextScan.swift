/// SQL text read byte by byte as SQLite's tokenizer reads it: where a string literal, a quoted
/// identifier or a comment ends, so that what is inside one is never taken for a token of the statement.
///
/// ```swift
/// let text = Array("'it''s' -- a comment".utf8)
/// SQLTextScan.endOfQuotedOrComment(in: text, at: 0)   // 7, after the literal
/// SQLTextScan.endOfQuotedOrComment(in: text, at: 8)   // 20, the end of the comment
/// ```
enum SQLTextScan {
    /// Where the string literal, quoted identifier or comment starting at `index` ends (one past its
    /// last byte), or `nil` when none starts there. An unterminated one runs to the end of the text.
    static func endOfQuotedOrComment(in text: [UInt8], at index: Int) -> Int? {
        let byte = text[index]
        let closing: UInt8
        switch byte {
        case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"): closing = byte
        case UInt8(ascii: "["): closing = UInt8(ascii: "]")
        case UInt8(ascii: "-") where index + 1 < text.count && text[index + 1] == UInt8(ascii: "-"):
            var end = index + 2
            while end < text.count, text[end] != UInt8(ascii: "\n") { end += 1 }
            return end
        case UInt8(ascii: "/") where index + 1 < text.count && text[index + 1] == UInt8(ascii: "*"):
            var end = index + 2
            while end + 1 < text.count, !(text[end] == UInt8(ascii: "*") && text[end + 1] == UInt8(ascii: "/")) { end += 1 }
            return min(end + 2, text.count)
        default:
            return nil
        }
        // A doubled closing quote stands for the character itself and does not close (brackets have no
        // such escape).
        var end = index + 1
        while end < text.count {
            if text[end] == closing {
                if closing != UInt8(ascii: "]"), end + 1 < text.count, text[end + 1] == closing {
                    end += 2
                    continue
                }
                return end + 1
            }
            end += 1
        }
        return text.count
    }
}

