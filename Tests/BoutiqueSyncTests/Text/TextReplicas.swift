import BoutiqueSyncCore
import BoutiqueTestSupport
import Testing

/// Several replicas of one collaborative text and a network between them that delivers each
/// operation to every other replica in a random order, some of them more than once.
struct TextReplicas {
    var texts: [CollaborativeText]
    let names: [String]
    /// Per replica, the operations sent to it and not delivered yet (repeats included).
    var inboxes: [[TextOperation]]
    /// Every operation made, in the order made.
    var made: [TextOperation] = []

    init(count: Int) {
        texts = Array(repeating: CollaborativeText(), count: count)
        names = (0..<count).map { "replica-\($0)" }
        inboxes = Array(repeating: [], count: count)
    }

    /// Records operations `replica` made and sends them to the others (twice, now and then).
    mutating func send(_ operations: [TextOperation], from replica: Int, _ random: inout SeededRandom) {
        made.append(contentsOf: operations)
        for other in texts.indices where other != replica {
            for operation in operations {
                inboxes[other].append(operation)
                if random.chance(15) { inboxes[other].append(operation) }
            }
        }
    }

    /// Delivers a random part of `replica`'s inbox in a random order, sometimes with an old operation
    /// again, checking that characters it already had keep their order.
    mutating func deliverSome(to replica: Int, _ random: inout SeededRandom, all: Bool = false) throws {
        var inbox = inboxes[replica]
        var batch: [TextOperation] = []
        var kept: [TextOperation] = []
        for operation in inbox {
            if all || random.chance(50) { batch.insert(operation, at: random.below(batch.count + 1)) } else { kept.append(operation) }
        }
        if !made.isEmpty, random.chance(30) { batch.append(random.pick(made)) }
        inbox = kept
        inboxes[replica] = inbox
        let before = texts[replica].visibleElementIDs
        for operation in batch { try texts[replica].apply(operation) }
        Self.expectOrderKept(before, texts[replica].visibleElementIDs)
    }

    /// One step of a random script: a random replica edits its text and sends the operations (six
    /// times in ten), or takes some of what was sent to it.
    mutating func step(_ random: inout SeededRandom) throws {
        let replica = random.below(texts.count)
        if random.chance(60) {
            send(try RandomText.edit(&texts[replica], by: names[replica], &random), from: replica, &random)
        } else {
            try deliverSome(to: replica, &random)
        }
    }

    /// Delivers everything everywhere, in random orders.
    mutating func deliverAll(_ random: inout SeededRandom) throws {
        for replica in texts.indices { try deliverSome(to: replica, &random, all: true) }
    }

    /// Characters present before and after keep their relative order: merging never moves text.
    static func expectOrderKept(_ before: [TextElementID], _ after: [TextElementID], sourceLocation: SourceLocation = #_sourceLocation) {
        let afterSet = Set(after)
        let beforeSet = Set(before)
        #expect(before.filter(afterSet.contains) == after.filter(beforeSet.contains), "merging moved characters", sourceLocation: sourceLocation)
    }

    /// Expects every replica to show the same text and (unless some compacted and others not) hold the
    /// same bytes, with nothing waiting.
    func expectConverged(sameBytes: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) {
        let first = texts[0]
        for text in texts.dropFirst() {
            #expect(text.text == first.text, sourceLocation: sourceLocation)
            let same = text.record() == first.record()
            if sameBytes { #expect(same, "replicas hold different states", sourceLocation: sourceLocation) }
        }
        for text in texts { #expect(text.waitingCount == 0, sourceLocation: sourceLocation) }
    }
}

/// Random text and edits for the tests: several scripts, combining marks and emoji (several scalars
/// each, which an edit may cut between but never inside).
enum RandomText {
    static let pieces = ["a", "b", "c", "d", " ", "é", "e\u{301}", "ß", "中", "文", "🙂", "👩‍💻", "🇫🇷", "\n", "x", "y"]

    static func string(_ random: inout SeededRandom, length: ClosedRange<Int>) -> String {
        (0..<random.int(in: length)).map { _ in random.pick(pieces) }.joined()
    }

    /// `old` with its scalars `range` replaced by `insertion`.
    static func replacing(_ old: String, _ range: Range<Int>, with insertion: String) -> String {
        var scalars = Array(old.unicodeScalars)
        scalars.replaceSubrange(range, with: insertion.unicodeScalars)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    /// A random local edit by `replica` of `text`, checked against the same edit on a plain string.
    static func edit(_ text: inout CollaborativeText, by replica: String, _ random: inout SeededRandom,
                     sourceLocation: SourceLocation = #_sourceLocation) throws -> [TextOperation] {
        let old = text.text
        let count = old.unicodeScalars.count
        let expected: String
        var operations: [TextOperation] = []
        switch random.below(count == 0 ? 1 : 3) {
        case 0:
            let offset = random.int(in: 0...count)
            let insertion = string(&random, length: 1...6)
            operations.append(try text.insert(insertion, at: offset, by: replica))
            expected = replacing(old, offset..<offset, with: insertion)
        case 1:
            let start = random.int(in: 0...(count - 1))
            let range = start..<random.int(in: (start + 1)...min(count, start + 5))
            operations.append(try #require(try text.delete(range, by: replica)))
            expected = replacing(old, range, with: "")
        default:
            // An app writing a whole string: a few changes at random places.
            var new = old
            for _ in 0..<random.int(in: 1...3) {
                let scalars = new.unicodeScalars.count
                let start = random.int(in: 0...scalars)
                let end = random.int(in: start...min(scalars, start + 4))
                new = replacing(new, start..<end, with: random.chance(70) ? string(&random, length: 0...4) : "")
            }
            operations = try text.replaceText(with: new, by: replica)
            expected = new
        }
        #expect(text.text == expected, "a local edit did not do what it says", sourceLocation: sourceLocation)
        return operations
    }
}
