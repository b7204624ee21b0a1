import BoutiqueTestSupport

/// Strings meant to break whatever builds SQL by pasting text: quotes, comment and statement
/// delimiters, parameter markers, LIKE and GLOB wildcards, NUL characters, case-folding traps,
/// combining marks, right-to-left overrides and astral characters.
enum HostileStrings {
    static let pool: [String] = [
        "", " ", "'", "''", "\"", "a'b", "'; DROP TABLE reminder; --", "Robert'); DROP TABLE remindersList;--",
        "x' OR '1'='1", "%", "_", "%_%", "a%", "%a", "\\", "\\%", "!", "!%", "NULL", "null", "?", "?1", ":name",
        "@x", "$y", "--", "/*", "*/", ";", "*", "[a-z]", "é", "e\u{301}", "É", "ß", "SS", "İ", "i", "I",
        "日本語", "🙂", "👩‍👩‍👧", "\u{0}", "a\u{0}b", "\u{0}%", "\n\t\r", "Ā", "ÄBC", "abc", "ABC", "Abc",
        "Groceries", "groceries", "\u{FEFF}", "\u{202E}rtl", "a_b", "a b", "zz", "~", "\u{7F}",
        String(repeating: "long ", count: 60),
    ]

    static let pieces: [String] = ["a", "A", "b", "%", "_", "'", "\u{0}", "é", "🙂", "!", " ", "\""]

    /// A string from the pool, or a few pieces joined, so that prefixes and substrings recur.
    static func make(_ random: inout SeededRandom) -> String {
        if random.chance(55) { return random.pick(pool) }
        return (0..<random.int(in: 1...4)).map { _ in random.pick(pieces) }.joined()
    }

    /// A value to store, the empty string included.
    static func stored(_ random: inout SeededRandom) -> String {
        make(&random)
    }

    /// A needle for `contains`, `hasPrefix` or `hasSuffix`: often a piece of a value already stored.
    static func needle(_ random: inout SeededRandom, from stored: [String]) -> String {
        guard random.chance(60), let value = stored.isEmpty ? nil : random.pick(stored) else { return make(&random) }
        let characters = Array(value)
        guard !characters.isEmpty else { return value }
        let start = random.below(characters.count)
        let end = random.int(in: start...characters.count)
        switch random.below(3) {
        case 0: return String(characters[..<end])
        case 1: return String(characters[start...])
        default: return String(characters[start..<end])
        }
    }

    /// A LIKE pattern: a stored value with some characters replaced by wildcards, or a hostile string.
    static func likePattern(_ random: inout SeededRandom, from stored: [String]) -> String {
        guard random.chance(60), !stored.isEmpty else { return make(&random) }
        var characters = Array(random.pick(stored))
        for index in characters.indices where random.chance(25) {
            characters[index] = random.chance(50) ? "%" : "_"
        }
        if random.chance(30) { characters.insert("%", at: 0) }
        if random.chance(30) { characters.append("%") }
        return String(characters)
    }
}
