import BoutiqueSyncCore
import BoutiqueTestSupport
import Testing

/// Whole strings become edits: applying the diff of (old, new) to a text showing old shows new, on the
/// writer and on every replica it reaches; one keystroke becomes one small operation.
@Suite struct TextDiffTests {
    /// `old` changed at a few random places (or entirely).
    static func variant(of old: String, _ random: inout SeededRandom) -> String {
        if random.chance(10) { return RandomText.string(&random, length: 0...40) }
        var new = old
        for _ in 0..<random.int(in: 1...4) {
            let count = new.unicodeScalars.count
            let start = random.int(in: 0...count)
            let end = random.int(in: start...min(count, start + random.int(in: 0...10)))
            new = RandomText.replacing(new, start..<end, with: RandomText.string(&random, length: 0...6))
        }
        return new
    }

    /// The edits, applied to a plain string, give the new string.
    static func applying(_ edits: [TextEdit], to old: String) -> String {
        var result = old
        for edit in edits.reversed() {
            result = RandomText.replacing(result, edit.offset..<(edit.offset + edit.deleteCount), with: edit.insertion)
        }
        return result
    }

    @Test func diffsRoundTrip() throws {
        var random = SeededRandom(seed: 31)
        for round in 0..<300 {
            let old = RandomText.string(&random, length: 0...40)
            let new = Self.variant(of: old, &random)
            let edits = TextDiff.edits(from: old, to: new, bound: random.pick([1, 4, TextDiff.defaultBound]))
            #expect(Self.applying(edits, to: old) == new, "round \(round)")

            // On a text showing `old` after a history of two writers, and on a replica the edits reach.
            var writer = CollaborativeText()
            var other = CollaborativeText()
            for operation in try writer.replaceText(with: String(String.UnicodeScalarView(old.unicodeScalars.reversed())), by: "w") { try other.apply(operation) }
            for operation in try other.replaceText(with: old, by: "o") { try writer.apply(operation) }
            #expect(writer.text == old)
            let operations = try writer.replaceText(with: new, by: "w")
            #expect(writer.text == new)
            try other.apply(operations.shuffled(using: &random))
            #expect(other.text == new)
        }
    }

    @Test func oneKeystrokeIsOneSmallOperation() throws {
        let old = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 200)
        var text = CollaborativeText()
        _ = try text.insert(old, at: 0, by: "w")
        let new = RandomText.replacing(old, 4_000..<4_000, with: "X")
        #expect(TextDiff.edits(from: old, to: new) == [TextEdit(offset: 4_000, deleteCount: 0, insertion: "X")])
        let operations = try text.replaceText(with: new, by: "w")
        #expect(operations.count == 1)
        #expect(operations.first?.counterCount == 1)
        #expect(text.text == new)
    }

    @Test func separateChangesBecomeSeparateEdits() {
        let edits = TextDiff.edits(from: "Hello world", to: "Hallo world!")
        #expect(edits == [TextEdit(offset: 1, deleteCount: 1, insertion: "a"), TextEdit(offset: 11, deleteCount: 0, insertion: "!")])
        #expect(Self.applying(edits, to: "Hello world") == "Hallo world!")
        #expect(TextDiff.edits(from: "Hello world", to: "Hello, wide world") == [TextEdit(offset: 5, deleteCount: 0, insertion: ", wide")])
    }

    /// Past the bound the middle is replaced whole, still correctly.
    @Test func pastTheBoundTheMiddleIsReplaced() {
        let old = "start " + String(repeating: "ab", count: 50) + " end"
        let new = "start " + String(repeating: "ba", count: 50) + "! end"
        let bounded = TextDiff.edits(from: old, to: new, bound: 2)
        #expect(bounded.count == 1)
        #expect(Self.applying(bounded, to: old) == new)
        let searched = TextDiff.edits(from: old, to: new)
        #expect(Self.applying(searched, to: old) == new)
        #expect(searched.map { $0.deleteCount + $0.insertion.unicodeScalars.count }.reduce(0, +) < 200)
    }

    /// Scalars are the unit: an edit may fall between an "e" and its accent, never inside a UTF-8
    /// sequence, so the result is always valid text.
    @Test func editsFallBetweenScalars() throws {
        let old = "cafe\u{301} 🙂"
        let new = "cafe\u{300} 🙃"
        let edits = TextDiff.edits(from: old, to: new)
        #expect(edits == [TextEdit(offset: 4, deleteCount: 1, insertion: "\u{300}"), TextEdit(offset: 6, deleteCount: 1, insertion: "🙃")])
        var text = CollaborativeText()
        _ = try text.insert(old, at: 0, by: "w")
        _ = try text.replaceText(with: new, by: "w")
        #expect(text.text == new)
    }
}
