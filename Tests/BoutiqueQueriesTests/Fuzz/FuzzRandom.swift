/// A small deterministic generator (SplitMix64): every run of the fuzz tests sees the same programs,
/// and a failure names the seed and case that replay it.
struct FuzzRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// A number in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }

    /// `true` with the given chance, in percent.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }
}

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
    static func make(_ random: inout FuzzRandom) -> String {
        if random.chance(55) { return random.pick(pool) }
        return (0..<random.int(in: 1...4)).map { _ in random.pick(pieces) }.joined()
    }

    /// A value to store, the empty string included.
    static func stored(_ random: inout FuzzRandom) -> String {
        make(&random)
    }

    /// A needle for `contains`, `hasPrefix` or `hasSuffix`: often a piece of a value already stored.
    static func needle(_ random: inout FuzzRandom, from stored: [String]) -> String {
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
    static func likePattern(_ random: inout FuzzRandom, from stored: [String]) -> String {
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
