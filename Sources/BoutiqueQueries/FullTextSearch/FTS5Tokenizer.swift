/// How an FTS5 table splits text into the tokens a search matches: its `tokenize` option.
///
/// ```swift
/// FTS5Tokenizer.unicode61()                       // tokenize = 'unicode61 remove_diacritics 2'
/// FTS5Tokenizer.porter()                          // "lemons" finds "lemon": English stems
/// FTS5Tokenizer.trigram()                         // any substring of three characters or more
/// FTS5Tokenizer.unicode61(tokenCharacters: "-")   // "e-mail" stays one token
/// ```
///
/// These are the tokenizers SQLite builds into FTS5. The option is part of the table's `CREATE
/// VIRTUAL TABLE` text, where nothing can be bound: each argument is quoted, and the whole option once
/// more, so a character in `tokenCharacters` or `separators` can never end either early.
public struct FTS5Tokenizer: Hashable, Sendable {
    /// What `unicode61` does with diacritics ("é" and "e").
    public enum Diacritics: Int, Hashable, Sendable {
        /// Kept: "café" does not find "cafe".
        case keep = 0
        /// Removed from characters with one diacritic (FTS5's default when no tokenizer is named).
        case remove = 1
        /// Removed from every character, also those with several.
        case removeAll = 2
    }

    /// The tokenizer's name followed by its arguments, as FTS5 reads them (`["porter", "unicode61"]`).
    public let arguments: [String]

    private init(_ arguments: [String]) {
        self.arguments = arguments
    }

    /// `unicode61`: words of Unicode letters and digits, case folded.
    ///
    /// - Parameters:
    ///   - removeDiacritics: Whether "é" matches "e".
    ///   - tokenCharacters: Characters that are part of words although they are not letters or digits.
    ///   - separators: Characters that end words although they are letters or digits.
    public static func unicode61(
        removeDiacritics: Diacritics = .removeAll, tokenCharacters: String = "", separators: String = ""
    ) -> FTS5Tokenizer {
        var arguments = ["unicode61", "remove_diacritics", String(removeDiacritics.rawValue)]
        if !tokenCharacters.isEmpty { arguments += ["tokenchars", tokenCharacters] }
        if !separators.isEmpty { arguments += ["separators", separators] }
        return FTS5Tokenizer(arguments)
    }

    /// `ascii`: words of ASCII letters and digits (every other character is part of a word), ASCII case
    /// folded.
    ///
    /// - Parameters:
    ///   - tokenCharacters: ASCII characters that are part of words although they are not letters or digits.
    ///   - separators: ASCII characters that end words although they are letters or digits.
    public static func ascii(tokenCharacters: String = "", separators: String = "") -> FTS5Tokenizer {
        var arguments = ["ascii"]
        if !tokenCharacters.isEmpty { arguments += ["tokenchars", tokenCharacters] }
        if !separators.isEmpty { arguments += ["separators", separators] }
        return FTS5Tokenizer(arguments)
    }

    /// `porter`: the words of `base`, reduced to their English stems ("lemons" and "lemon" match).
    public static func porter(_ base: FTS5Tokenizer = .unicode61()) -> FTS5Tokenizer {
        FTS5Tokenizer(["porter"] + base.arguments)
    }

    /// `trigram`: every sequence of three characters, so that a search finds any substring of three
    /// characters or more (`MATCH 'ilk'` finds "milk"), at the price of a larger index.
    ///
    /// - Parameter caseSensitive: Whether "Milk" and "milk" differ.
    public static func trigram(caseSensitive: Bool = false) -> FTS5Tokenizer {
        FTS5Tokenizer(["trigram", "case_sensitive", caseSensitive ? "1" : "0"])
    }

    /// The `tokenize = '…'` option of the `CREATE VIRTUAL TABLE` statement: each argument that is not a
    /// bare word quoted the way FTS5 unquotes it, then the list quoted as an SQL string.
    var option: String {
        let list = arguments.map { argument in
            let isBareWord = !argument.isEmpty && argument.utf8.allSatisfy {
                ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z"))
                    || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "_")
            }
            return isBareWord ? argument : SQLQuote.wrap(argument, in: UInt8(ascii: "'"))
        }
        return "tokenize = " + SQLQuote.wrap(list.joined(separator: " "), in: UInt8(ascii: "'"))
    }
}
