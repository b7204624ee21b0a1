/// Bad command-line usage: reported with the command's help and exit status 2.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// A small hand-written argument reader: flags and options are taken by name, the rest are positionals.
struct ArgumentParser {
    private var remaining: [String]

    init(_ arguments: [String]) { remaining = arguments }

    /// Removes `flag` when present and says whether it was.
    mutating func takeFlag(_ flag: String) -> Bool {
        guard let index = remaining.firstIndex(of: flag) else { return false }
        remaining.remove(at: index)
        return true
    }

    /// Removes `--name VALUE` (or `--name=VALUE`) and returns the value.
    mutating func takeOption(_ name: String) throws -> String? {
        if let index = remaining.firstIndex(where: { $0.hasPrefix(name + "=") }) {
            let value = String(remaining[index].dropFirst(name.count + 1))
            remaining.remove(at: index)
            return value
        }
        guard let index = remaining.firstIndex(of: name) else { return nil }
        guard index + 1 < remaining.count else { throw UsageError("\(name) needs a value") }
        let value = remaining[index + 1]
        remaining.removeSubrange(index...(index + 1))
        return value
    }

    /// Whether option `name` is given (as `--name VALUE` or `--name=VALUE`), without taking it.
    func has(_ name: String) -> Bool {
        remaining.contains { $0 == name || $0.hasPrefix(name + "=") }
    }

    /// Removes and returns the next positional argument, failing with `what` in the message when missing.
    mutating func takePositional(_ what: String) throws -> String {
        guard let index = remaining.firstIndex(where: { !$0.hasPrefix("--") || $0 == "--" }) else {
            throw UsageError("missing \(what)")
        }
        return remaining.remove(at: index)
    }

    /// Fails when arguments are left over.
    func finish() throws {
        if let extra = remaining.first { throw UsageError("unexpected argument '\(extra)'") }
    }
}
