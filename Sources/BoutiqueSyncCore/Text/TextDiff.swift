/// One change of a string: at `offset` (in Unicode scalars of the old string), `deleteCount` scalars
/// replaced by `insertion`.
///
/// ```swift
/// TextEdit(offset: 6, deleteCount: 5, insertion: "there")   // "Hello world" → "Hello there"
/// ```
public struct TextEdit: Hashable, Sendable {
    /// Where the change starts, in scalars of the old string.
    public var offset: Int
    /// How many scalars of the old string it removes.
    public var deleteCount: Int
    /// What it puts in their place.
    public var insertion: String

    /// A change at `offset`.
    public init(offset: Int, deleteCount: Int, insertion: String) {
        self.offset = offset
        self.deleteCount = deleteCount
        self.insertion = insertion
    }
}

/// The edits that turn one string into another, for apps that write whole strings to a collaborative
/// column: the common prefix and suffix are skipped in linear time (a keystroke, a paste, a cut: one
/// edit region, the common case), and what differs between them is diffed with Myers' algorithm up to
/// a bound on the number of scalars added and removed, past which the middle is replaced whole.
///
/// ```swift
/// let edits = TextDiff.edits(from: "Hello world", to: "Hallo world!")
/// // [TextEdit(offset: 1, deleteCount: 1, insertion: "a"), TextEdit(offset: 11, deleteCount: 0, insertion: "!")]
/// ```
///
/// The work is O(n + m) for one edit region and O((n + m) · bound) otherwise, with O(bound²) memory.
public enum TextDiff {
    /// The default bound on the scalars added and removed that Myers' search looks for.
    public static let defaultBound = 256

    /// The edits turning `old` into `new`, in increasing offset order, not overlapping.
    public static func edits(from old: String, to new: String, bound: Int = defaultBound) -> [TextEdit] {
        let a = Array(old.unicodeScalars)
        let b = Array(new.unicodeScalars)
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        let oldMiddle = a[prefix..<(a.count - suffix)]
        let newMiddle = b[prefix..<(b.count - suffix)]
        if oldMiddle.isEmpty, newMiddle.isEmpty { return [] }
        if oldMiddle.isEmpty || newMiddle.isEmpty {
            return [TextEdit(offset: prefix, deleteCount: oldMiddle.count, insertion: string(newMiddle))]
        }
        if let script = myers(Array(oldMiddle), Array(newMiddle), bound: max(bound, 1)) {
            return group(script, newMiddle: Array(newMiddle), offset: prefix)
        }
        return [TextEdit(offset: prefix, deleteCount: oldMiddle.count, insertion: string(newMiddle))]
    }

    /// One step of an edit script: delete old scalar `old`, or insert new scalar `new` before old
    /// scalar `old`.
    enum Step { case delete(old: Int), insert(old: Int, new: Int) }

    /// The shortest edit script from `a` to `b`, or `nil` when it needs more than `bound` steps.
    static func myers(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], bound: Int) -> [Step]? {
        let n = a.count, m = b.count
        let limit = min(bound, n + m)
        let offset = limit + 1
        var frontier = [Int](repeating: 0, count: 2 * limit + 3)
        // The frontier before each round, to walk back along.
        var trace: [[Int]] = []
        for d in 0...limit {
            trace.append(frontier)
            for k in stride(from: -d, through: d, by: 2) {
                var x = k == -d || (k != d && frontier[offset + k - 1] < frontier[offset + k + 1])
                    ? frontier[offset + k + 1] : frontier[offset + k - 1] + 1
                var y = x - k
                while x < n, y < m, a[x] == b[y] { x += 1; y += 1 }
                frontier[offset + k] = x
                if x >= n, y >= m { return backtrack(trace, rounds: d, n: n, m: m, offset: offset) }
            }
        }
        return nil
    }

    private static func backtrack(_ trace: [[Int]], rounds: Int, n: Int, m: Int, offset: Int) -> [Step] {
        var steps: [Step] = []
        var x = n, y = m
        for d in stride(from: rounds, to: 0, by: -1) {
            let frontier = trace[d]
            let k = x - y
            let previousK = k == -d || (k != d && frontier[offset + k - 1] < frontier[offset + k + 1]) ? k + 1 : k - 1
            let previousX = frontier[offset + previousK]
            let previousY = previousX - previousK
            while x > previousX, y > previousY { x -= 1; y -= 1 }
            if x == previousX {
                y -= 1
                steps.append(.insert(old: x, new: y))
            } else {
                x -= 1
                steps.append(.delete(old: x))
            }
        }
        return steps.reversed()
    }

    /// Joins adjacent steps into edits.
    private static func group(_ steps: [Step], newMiddle: [Unicode.Scalar], offset: Int) -> [TextEdit] {
        var edits: [(offset: Int, deleteCount: Int, insertion: [Unicode.Scalar])] = []
        for step in steps {
            let at: Int
            switch step {
            case .delete(let old): at = old
            case .insert(let old, _): at = old
            }
            if let last = edits.last, last.offset + last.deleteCount == at {
                switch step {
                case .delete: edits[edits.count - 1].deleteCount += 1
                case .insert(_, let new): edits[edits.count - 1].insertion.append(newMiddle[new])
                }
            } else {
                switch step {
                case .delete(let old): edits.append((old, 1, []))
                case .insert(let old, let new): edits.append((old, 0, [newMiddle[new]]))
                }
            }
        }
        return edits.map { TextEdit(offset: offset + $0.offset, deleteCount: $0.deleteCount, insertion: string($0.insertion[...])) }
    }

    private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}

extension CollaborativeText {
    /// Makes the text show `new`, as `replica`, by the edits ``TextDiff`` finds from the current text;
    /// returns the operations to send.
    ///
    /// ```swift
    /// let operations = try note.replaceText(with: editedBody, by: "phone")   // an app wrote a whole string
    /// ```
    ///
    /// - Throws: what ``insert(_:at:by:)`` and ``delete(_:by:)`` throw.
    public mutating func replaceText(with new: String, by replica: String, bound: Int = TextDiff.defaultBound) throws -> [TextOperation] {
        try apply(TextDiff.edits(from: text, to: new, bound: bound), by: replica)
    }

    /// Applies `edits` (offsets in the current text, increasing, not overlapping) as `replica`; returns
    /// the operations to send.
    ///
    /// - Throws: what ``insert(_:at:by:)`` and ``delete(_:by:)`` throw, before any edit is made when an
    ///   edit is out of order or out of the text.
    public mutating func apply(_ edits: [TextEdit], by replica: String) throws -> [TextOperation] {
        var end = 0
        for edit in edits {
            guard edit.offset >= end, edit.deleteCount >= 0 else { throw BoutiqueError.invalidArgument("text edits out of order at \(edit.offset)") }
            end = edit.offset + edit.deleteCount
        }
        guard end <= count else { throw BoutiqueError.invalidArgument("text edits past the end of \(count) characters") }
        var operations: [TextOperation] = []
        // From the last edit back, so that the offsets of the earlier ones still hold.
        for edit in edits.reversed() {
            if let deletion = try delete(edit.offset..<(edit.offset + edit.deleteCount), by: replica) { operations.append(deletion) }
            if !edit.insertion.isEmpty { operations.append(try insert(edit.insertion, at: edit.offset, by: replica)) }
        }
        return operations
    }
}
