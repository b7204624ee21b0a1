import BoutiqueSyncCore
import BoutiqueTestSupport
import Testing

/// Compaction drops the tombstones every replica has passed: the text stays, replicas that compact at
/// the same version hold the same bytes, editing goes on between compacted and uncompacted replicas,
/// and the metadata of one writer's text ends within twice its UTF-8 size.
@Suite struct CompactionTests {
    /// What every replica has seen.
    static func stable(_ replicas: TextReplicas) -> TextVersion {
        var version = replicas.texts[0].version
        for text in replicas.texts.dropFirst() { version.formMinimum(text.version) }
        return version
    }

    @Test(arguments: TestBudget.cases(25))
    func compactedAndUncompactedReplicasKeepConverging(seed: UInt64) async throws {
        try await ComputeLane.shared.run {
            var random = SeededRandom(seed: 9_000 + seed)
            var replicas = TextReplicas(count: random.int(in: 2...4))
            for phase in 0..<3 {
                for _ in 0..<random.int(in: 20...50) {
                    try replicas.step(&random)
                }
                try replicas.deliverAll(&random)
                replicas.expectConverged(sameBytes: phase == 0)
                // Everyone has everything: all of it is stable. Some replicas compact, the others not yet.
                let stable = Self.stable(replicas)
                let text = replicas.texts[0].text
                var compacted: [Int] = []
                for index in replicas.texts.indices where random.chance(50) || phase == 2 {
                    try replicas.texts[index].compact(stableThrough: stable)
                    #expect(replicas.texts[index].text == text)
                    compacted.append(index)
                }
                for pair in zip(compacted, compacted.dropFirst()) {
                    let same = replicas.texts[pair.0].record() == replicas.texts[pair.1].record()
                    #expect(same, "compacted replicas hold different states")
                }
            }
            // Compacting again at the same version finds nothing more to drop.
            for index in replicas.texts.indices {
                var again = replicas.texts[index]
                try again.compact(stableThrough: Self.stable(replicas))
                let same = again.record() == replicas.texts[index].record()
                #expect(same, "a second compaction changed replica \(index)")
            }
        }
    }

    /// Tombstones that an edit still in flight may name are kept until it is applied.
    @Test func tombstonesNamedByConcurrentEditsWaitForThem() throws {
        var a = CollaborativeText()
        var b = CollaborativeText()
        try b.apply(try a.insert("abcdef", at: 0, by: "a"))
        let cut = try #require(try a.delete(2..<4, by: "a"))
        // b types between c and d before it hears of the deletion.
        let typed = try b.insert("X", at: 3, by: "b")
        try b.apply(cut)
        // Only the deletion is stable (both have it); b's insertion is not in the version.
        var stable = a.version
        stable.formMinimum(b.version)
        try b.compact(stableThrough: stable)
        try a.apply(typed)
        #expect(a.text == "abXef")
        #expect(b.text == "abXef")
    }

    /// A tombstone that orders a kept character among its siblings (its right origin) stays: a sibling
    /// typed later is ordered against it, the same way on replicas that compacted and those that did not.
    @Test func tombstonesThatOrderSiblingsStay() throws {
        var a = CollaborativeText(), b = CollaborativeText(), c = CollaborativeText()
        // "L" and "y" typed at the start concurrently: two runs hanging on the start, "L" first.
        let l = try a.insert("L", at: 0, by: "a")
        let y = try b.insert("y", at: 0, by: "b")
        try a.apply(y)
        try b.apply(l)
        try c.apply([l, y])
        #expect(a.text == "Ly")
        // a types between L and y (ordered by y); b meanwhile deletes y, then types after L.
        let typedA = try a.insert("A", at: 1, by: "a")
        let cut = try #require(try b.delete(1..<2, by: "b"))
        try a.apply(cut)
        try c.apply([cut, typedA])
        let typedB = try b.insert("B", at: 1, by: "b")
        // Every replica has seen "L", "y" and its deletion; c compacts through them.
        let stable = TextVersion(["a": 1, "b": 2])
        try c.compact(stableThrough: stable)
        try a.apply(typedB)
        try b.apply(typedA)
        try c.apply(typedB)
        #expect(a.text == b.text)
        #expect(c.text == a.text)
    }

    /// An operation anchored to a character this replica compacted away breaks compaction's contract:
    /// it is refused with an error, and the text is unchanged.
    @Test func anOperationAnchoredToACompactedCharacterIsRefused() throws {
        var a = CollaborativeText()
        _ = try a.insert("abc", at: 0, by: "a")
        try a.delete(2..<3, by: "a")
        try a.compact(stableThrough: a.version)
        #expect(a.tombstoneCount == 0)
        let before = a.record()
        let late = TextInsertion(id: TextElementID(replica: "late", counter: 0), text: "X",
                                 parent: TextElementID(replica: "a", counter: 2), side: .right, rightOrigin: nil)
        #expect(throws: BoutiqueError.self) { try a.apply(.insert(late)) }
        #expect(a.record() == before)
        var beyond = a.version
        beyond["a"] += 1
        #expect(throws: BoutiqueError.self) { try a.compact(stableThrough: beyond) }
    }

    /// One writer edits a text the way people do (typing, fixing typos, rewriting words and sentences
    /// anywhere); once compacted, its whole state, text included, is within 3× the text's UTF-8 size,
    /// so the metadata is within 2×.
    @Test func oneWritersMetadataIsWithinTwiceTheText() throws {
        var random = SeededRandom(seed: 123)
        var text = CollaborativeText()
        let words = ["note", "sync", "the", "device", "offline", "merge", "édition", "日本語", "🙂", "paragraph", "and", "server"]
        var cursor = 0
        for _ in 0..<TestBudget.rounds(3_000) {
            let count = text.count
            switch random.below(10) {
            case 0..<6:
                // Keep typing a word at the cursor.
                let word = random.pick(words) + " "
                _ = try text.insert(word, at: cursor, by: "writer")
                cursor += word.unicodeScalars.count
            case 6..<8 where count > 0:
                // A typo fixed: a few backspaces.
                let back = min(cursor, random.int(in: 1...4))
                if back > 0 { try text.delete((cursor - back)..<cursor, by: "writer") }
                cursor -= back
            case 8 where count > 0:
                // A word rewritten somewhere else.
                let start = random.below(count)
                let end = min(count, start + random.int(in: 1...12))
                _ = try text.apply([TextEdit(offset: start, deleteCount: end - start, insertion: random.pick(words))], by: "writer")
                cursor = random.int(in: 0...text.count)
            default:
                cursor = random.int(in: 0...count)
            }
        }
        let before = text.record().count
        try text.compact(stableThrough: text.version)
        let utf8 = text.text.utf8.count
        let metadata = text.record().count - utf8
        print("one writer, 3,000 edits: \(utf8) bytes of text, \(metadata) bytes of metadata after compaction (\(before) bytes in all before), \(text.tombstoneCount) tombstones kept")
        #expect(metadata <= 2 * utf8, "\(metadata) bytes of metadata for \(utf8) bytes of text (\(before) bytes before compaction)")
    }
}
