/// What the `CREATE VIRTUAL TABLE … USING fts5(…)` text that `sqlite_schema` keeps for a table says:
/// that it is an FTS5 table, and which table holds its content.
///
/// ```swift
/// let declaration = FTS5Declaration.parse(#"CREATE VIRTUAL TABLE "noteSearch" USING fts5("title", content='note')"#)
/// declaration?.contentTable                      // "note"
/// FTS5Declaration.storageTables(of: "noteSearch")   // ["noteSearch_config", "noteSearch_content", …]
/// ```
///
/// The change log and live queries need both facts and SQLite keeps them nowhere else: the module and
/// its arguments are only in the statement text. The text is read the way SQLite's tokenizer reads it
/// (quoted names, string literals, comments), so a quoted name holding `USING` or a comma misleads
/// nothing.
package struct FTS5Declaration: Sendable, Equatable {
    /// The table FTS5 reads the indexed text from (`content=…`); `nil` when the FTS5 table stores its own
    /// text, and empty for a contentless table.
    package var contentTable: String?

    /// The suffixes of the tables FTS5 creates beside an FTS5 table named `x`: `x_config`, `x_content`,
    /// `x_data`, `x_docsize` and `x_idx` (SQLite's shadow tables; FTS5 alone writes them).
    package static let storageSuffixes = ["config", "content", "data", "docsize", "idx"]

    /// The names of the storage tables of the FTS5 table `table`, spelled after it.
    package static func storageTables(of table: String) -> [String] {
        storageSuffixes.map { table + "_" + $0 }
    }

    /// The declaration of `sql`, or `nil` when it is not the text of an FTS5 virtual table.
    package static func parse(_ sql: String) -> FTS5Declaration? {
        var tokens = SQLTokens(sql)
        guard tokens.nextWord() == "create", tokens.nextWord() == "virtual", tokens.nextWord() == "table" else {
            return nil
        }
        var word = tokens.next()
        if word?.lowercasedWord == "if" {
            guard tokens.nextWord() == "not", tokens.nextWord() == "exists" else { return nil }
            word = tokens.next()
        }
        // The name, `schema.name` or `name`, then USING.
        guard word != nil else { return nil }
        word = tokens.next()
        if word?.text == "." {
            _ = tokens.next()
            word = tokens.next()
        }
        guard word?.lowercasedWord == "using", let module = tokens.next(), module.dequoted.lowercased() == "fts5" else {
            return nil
        }
        var declaration = FTS5Declaration(contentTable: nil)
        guard tokens.next()?.text == "(" else { return declaration }
        for argument in tokens.arguments() where argument.count >= 3 && argument[1].text == "=" {
            guard argument[0].dequoted.lowercased() == "content" else { continue }
            declaration.contentTable = argument[2...].map(\.dequoted).joined()
        }
        return declaration
    }
}

/// SQL text as tokens: words, quoted names and strings, and punctuation; whitespace and comments are
/// skipped.
private struct SQLTokens {
    struct Token {
        /// The token as written, quotes included.
        let text: String

        /// A bare word, lowercased; `nil` for anything else.
        var lowercasedWord: String? {
            guard let first = text.first, first.isLetter || first == "_" else { return nil }
            return text.lowercased()
        }

        /// The token without its quotes, doubled quotes made single (`"a""b"` → `a"b`, `[x]` → `x`).
        var dequoted: String {
            guard let first = text.first, text.count >= 2 else { return text }
            switch first {
            case "\"", "'", "`":
                var result = ""
                var afterQuote = false
                for character in text.dropFirst().dropLast() {
                    if character == first, afterQuote {
                        afterQuote = false
                        continue
                    }
                    afterQuote = character == first
                    result.append(character)
                }
                return result
            case "[":
                return String(text.dropFirst().dropLast())
            default:
                return text
            }
        }
    }

    private let bytes: [UInt8]
    private var position = 0

    init(_ sql: String) { bytes = Array(sql.utf8) }

    /// The next token's bare word, lowercased, or `nil`.
    mutating func nextWord() -> String? { next()?.lowercasedWord }

    /// The tokens of each top-level, comma-separated argument up to the closing parenthesis.
    mutating func arguments() -> [[Token]] {
        var arguments: [[Token]] = [[]]
        var depth = 0
        while let token = next() {
            switch token.text {
            case "(": depth += 1
            case ")" where depth == 0: return arguments
            case ")": depth -= 1
            case "," where depth == 0:
                arguments.append([])
                continue
            default: break
            }
            arguments[arguments.count - 1].append(token)
        }
        return arguments
    }

    /// The next token: a word, a quoted name or string (quotes kept), or one punctuation byte; `nil`
    /// at the end. Whitespace and comments are skipped.
    mutating func next() -> Token? {
        while position < bytes.count {
            let byte = bytes[position]
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                position += 1
            } else if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "/"),
                let end = SQLTextScan.endOfQuotedOrComment(in: bytes, at: position)
            {
                position = end
            } else {
                break
            }
        }
        guard position < bytes.count else { return nil }
        let start = position
        if let end = SQLTextScan.endOfQuotedOrComment(in: bytes, at: position) {
            position = end
        } else if Self.isWordByte(bytes[position]) {
            while position < bytes.count, Self.isWordByte(bytes[position]) { position += 1 }
        } else {
            position += 1
        }
        return Token(text: String(decoding: bytes[start..<position], as: UTF8.self))
    }

    /// Letters, digits, `_`, `$`, and every byte of a non-ASCII character, as SQLite's tokenizer takes them.
    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "$"), 0x80...:
            true
        default:
            false
        }
    }
}
