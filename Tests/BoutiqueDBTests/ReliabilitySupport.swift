import BoutiqueDB
import Foundation

enum Reliability {
    /// Waits until `condition` holds, at most ``hangDeadline(seconds:)``; `false` when it never did.
    static func poll(seconds: Double, _ condition: @Sendable () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(hangDeadline(seconds: seconds))
        while !condition() {
            if Date() > deadline { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }

    /// The numbers on the lines `prefix <n>` of a worker's output.
    static func numbers(after prefix: String, in output: String) -> [Int64] {
        output.split(separator: "\n").compactMap { line in
            line.hasPrefix(prefix + " ") ? Int64(line.dropFirst(prefix.count + 1)) : nil
        }
    }

    /// The integer in a value, or `nil`.
    static func integer(_ value: DatabaseValue) -> Int64? {
        if case .integer(let integer) = value { integer } else { nil }
    }

    /// Every file of a database: the file itself, its WAL and its shared-memory index.
    static func files(of path: String) -> [String] { [path, path + "-wal", path + "-shm"] }
}
