import BoutiqueSync
import Foundation

/// What collaborative text costs on a 100 KB note: one keystroke written as a whole new string (diffed
/// and applied), 1,000 operations from another replica applied, and the state's record written and
/// read. Reading the text once (one walk of the tree) is the unit the times are compared to.
enum CollaborativeTextWorkloads {
    static let size = 100_000

    static func run(rounds: Int) throws {
        var base = CollaborativeText()
        let paragraph = "Collaborative text keeps both edits: élan, 日本語, 🙂. "
        var body = ""
        while body.utf8.count < size { body += paragraph }
        _ = try base.insert(body, at: 0, by: "laptop")
        // Some history, so the tree is not one run: edits scattered by two writers.
        var random = SystemRandomNumberGenerator()
        for index in 0..<200 {
            let offset = Int.random(in: 0...base.count, using: &random)
            _ = try base.insert("edit ", at: offset, by: index % 2 == 0 ? "laptop" : "phone")
        }
        let old = base.text
        var scalars = Array(old.unicodeScalars)
        scalars.insert("x", at: scalars.count / 2)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        let new = String(view)

        // 1,000 keystrokes on another replica: typing with a few backspaces, at two places.
        var remote = base
        var operations: [TextOperation] = []
        var cursor = remote.count / 3
        for index in 0..<1_000 {
            if index % 10 == 9 {
                if let deletion = try remote.delete((cursor - 1)..<cursor, by: "tablet") { operations.append(deletion) }
                cursor -= 1
            } else {
                operations.append(try remote.insert("k", at: cursor, by: "tablet"))
                cursor += 1
            }
            if index == 500 { cursor = remote.count * 2 / 3 }
        }

        func median(_ body: () throws -> Void) rethrows -> Double {
            var times: [Double] = []
            for _ in 0..<rounds {
                let start = ContinuousClock.now
                try body()
                let elapsed = ContinuousClock.now - start
                times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
            }
            return times.sorted()[times.count / 2]
        }
        let read = median { _ = base.text }
        let keystroke = try median {
            var copy = base
            _ = try copy.replaceText(with: new, by: "laptop")
        }
        let diffOnly = median { _ = TextDiff.edits(from: old, to: new) }
        let applied = try median {
            var copy = base
            try copy.apply(operations)
        }
        let record = base.record()
        let encode = median { _ = base.record() }
        let decode = try median { _ = try CollaborativeText(record: record) }
        print("collaborative text, \(old.utf8.count) bytes (\(old.unicodeScalars.count) scalars), \(rounds) rounds, medians:")
        print(String(format: "  read the text once               %8.3f ms  (1.0×)", read))
        print(String(format: "  one keystroke: diff + apply       %8.3f ms  (%.1f× a read; the diff alone %.3f ms)", keystroke, keystroke / read, diffOnly))
        print(String(format: "  1,000 remote operations applied   %8.3f ms  (%.1f× a read, %.2f µs an operation)", applied, applied / read, applied))
        print(String(format: "  state record: %d bytes (%.2f× the text), written in %.3f ms (%.1f×), read in %.3f ms (%.1f×)",
                     record.count, Double(record.count) / Double(old.utf8.count), encode, encode / read, decode, decode / read))
    }
}
