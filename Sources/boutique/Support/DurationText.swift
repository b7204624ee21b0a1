/// Durations as a command line writes them: `90s`, `15m`, `12h`, `30d`, `2w`, or plain seconds.
enum DurationText {
    /// The number of seconds `text` says, or a usage error naming `option`.
    static func seconds(_ text: String, option: String) throws -> Int64 {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
        var digits = Substring(text)
        var unit: Int64 = 1
        if let last = text.last, let multiplier = units[last] {
            unit = multiplier
            digits = digits.dropLast()
        }
        guard let count = Int64(digits), count > 0 else {
            throw UsageError("\(option) takes a duration such as 90s, 15m, 12h, 30d or 2w, not '\(text)'")
        }
        let (total, overflow) = count.multipliedReportingOverflow(by: unit)
        guard !overflow, total <= 100 * 365 * 86_400 else { throw UsageError("\(option) \(text) is too long") }
        return total
    }
}
